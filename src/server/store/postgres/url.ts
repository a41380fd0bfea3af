// The PostgreSQL URL as bobina reads it, without loading pg: Prisma's `?schema=NAME` taken out
// (pg would pass it to the server as a startup parameter), and a form safe to log (no password).

/** A schema name bobina will create and put on search_path: letters, digits, underscore. */
const SCHEMA = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export interface PostgresTarget {
  /** The URL as pg gets it: no `schema` (nor `options`, which are merged into `options`). */
  connectionString: string;
  /** The schema named by `?schema=`, or undefined: the server's default search_path (public). */
  schema: string | undefined;
  /** `options` the URL carried (`-c key=value …`), kept and extended with search_path. */
  options: string | undefined;
}

export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (a keyword/value string): pg reads it as it is, with no schema of ours.
    return { connectionString: url, schema: undefined, options: undefined };
  }
  const schema = parsed.searchParams.get('schema') ?? undefined;
  const options = parsed.searchParams.get('options') ?? undefined;
  if (schema !== undefined && !SCHEMA.test(schema)) {
    throw new Error(`DATABASE_URL: schema "${schema}" is not accepted (letters, digits and underscore, not starting with a digit, at most 63)`);
  }
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('options');
  return { connectionString: parsed.toString(), schema, options };
}

/** The URL with its password replaced by `***`, for logs and messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // A keyword/value string: hide a password=… pair.
    return url.replace(/(password\s*=\s*)(?:'[^']*'|\S+)/gi, '$1***');
  }
}

/** A double-quoted SQL identifier (the name is already validated; quotes doubled regardless). */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
