// The version a terminal's client reports with its heartbeats (`versaoAgente`): bobina's own, set
// by the build (tsup's define); run from the sources (tests), read from package.json on first use.
import { fs } from './builtins.js';

declare const BOBINA_VERSION: string;

let version: string | undefined;

export function clientVersion(): string {
  if (version !== undefined) return version;
  if (typeof BOBINA_VERSION === 'string') return (version = BOBINA_VERSION);
  try {
    version = (JSON.parse(fs().readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    version = 'unknown';
  }
  return version;
}
