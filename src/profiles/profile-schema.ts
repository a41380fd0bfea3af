// The profile schema as loaded at run time: the JSON that `npm run profile-schema` writes from the
// TypeBox definition in schema.ts, so that importing bobina does not load TypeBox. The JSON leaves
// out TypeBox's hidden `~kind` and `~optional` markers (the check never reads them; they were 0.3 KB
// of a browser bundle's gzip): they are put back here, as TypeBox defines them, from what each node
// is. A test checks that the result is the object TypeBox builds, markers and all.
import json from './schema.json' with { type: 'json' };

type SchemaNode = Record<string, unknown>;

const KINDS: Readonly<Record<string, string>> = { integer: 'Integer', number: 'Number', string: 'String', boolean: 'Boolean', null: 'Null', array: 'Array' };

/** TypeBox's kind of a schema node, from its keywords. */
function kindOf(node: SchemaNode): string {
  if ('anyOf' in node) return 'Union';
  if ('const' in node) return 'Literal';
  if (node.type === 'object') return 'patternProperties' in node ? 'Record' : 'Object';
  return KINDS[node.type as string] ?? 'Unknown';
}

/** A non-enumerable marker, as TypeBox defines its own. */
function hidden(node: SchemaNode, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: false, writable: true, configurable: true });
}

/** Puts the markers back on `node` and the schemas inside it (an optional property is one its object does not require). */
function withMarkers(node: SchemaNode, optional = false): SchemaNode {
  for (const inner of (node.anyOf as SchemaNode[] | undefined) ?? []) withMarkers(inner);
  if (node.items) withMarkers(node.items as SchemaNode);
  for (const inner of Object.values((node.patternProperties as Record<string, SchemaNode> | undefined) ?? {})) withMarkers(inner);
  const required = new Set((node.required as string[] | undefined) ?? []);
  for (const [name, inner] of Object.entries((node.properties as Record<string, SchemaNode> | undefined) ?? {})) withMarkers(inner, !required.has(name));
  hidden(node, '~kind', kindOf(node));
  if (optional) hidden(node, '~optional', true);
  return node;
}

/**
 * A JSON Schema object node, as ProfileSchema is declared: a plain type, so that bobina's
 * declarations import nothing from TypeBox. The object is TypeBox's all the same (its `~kind`
 * markers included): TypeBox's `Value.Check(ProfileSchema, x)` takes it as it is.
 */
export interface ProfileJsonSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required: readonly string[];
  readonly [keyword: string]: unknown;
}

/** The JSON Schema every profile is checked against (TypeBox's object, declared as a plain JSON Schema). */
export const ProfileSchema = withMarkers(json as SchemaNode) as unknown as ProfileJsonSchema;
