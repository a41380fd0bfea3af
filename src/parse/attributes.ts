// A tag's parts read from its token (name, closing or self-closing, attributes with their spans),
// and attributes checked against what a tag takes: an unknown one is a warning, a bad or missing
// value an error at its position; what was given and valid comes back, escapes resolved.
import type { RawDiagnostic } from '../diagnostics.js';
import { unescape } from './escapes.js';

export interface Attribute {
  name: string;
  /** The value as written between the quotes (undefined when there is no `="…"`). */
  value: string | undefined;
  /** Written `name="value"`, as it must be (not `name=value` or `name` alone). */
  quoted: boolean;
  start: number;
  end: number;
  /** The value's span (inside the quotes); the attribute's when it has none. */
  valueStart: number;
  valueEnd: number;
}

export interface TagParts {
  closing: boolean;
  name: string;
  selfClosing: boolean;
  attributes: Attribute[];
}

const HEAD = /<(\/?)([A-Za-z][A-Za-z0-9_-]*)/y;
const ATTRIBUTE = /[ \t]+([A-Za-z][A-Za-z0-9_-]*)(?:[ \t]*=[ \t]*(?:"([^"<\r\n]*)"|([^\s"<>=]+)))?/y;
const TAIL = /[ \t]*(\/?)>/y;

/** The parts of the tag token at `source[start, …)` (the lexer's Tag, QrOpen or QrEmpty). */
export function readTag(source: string, start: number): TagParts {
  HEAD.lastIndex = start;
  const head = HEAD.exec(source)!;
  const attributes: Attribute[] = [];
  let at = HEAD.lastIndex;
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(source);
    if (m === null) break;
    const end = ATTRIBUTE.lastIndex;
    const name = m[1]!;
    const nameStart = m.index + m[0].indexOf(name);
    const quoted = m[2] !== undefined;
    const value = quoted ? m[2] : m[3];
    // A quoted value ends one before the closing quote; an unquoted one at the attribute's end.
    const valueEnd = quoted ? end - 1 : end;
    const valueStart = value === undefined ? nameStart : valueEnd - value.length;
    attributes.push({ name, value, quoted, start: nameStart, end, valueStart, valueEnd });
    at = end;
  }
  TAIL.lastIndex = at;
  const tail = TAIL.exec(source)!;
  return { closing: head[1] === '/', name: head[2]!, selfClosing: tail[1] === '/', attributes };
}

/** A kind of attribute value: how it is read, and what is expected (for the error message). */
export interface ValueType<T> {
  read(value: string): T | undefined;
  expected: string;
}

export interface AttributeSpec {
  type: ValueType<unknown>;
  required?: boolean;
}

/** What one tag takes: attribute name → its spec. */
export type AttributeSpecs = Readonly<Record<string, AttributeSpec>>;

/** The values a tag was given and that are valid, by attribute name; `ok` is false when a required one is missing or bad. */
export interface CheckedAttributes {
  values: Record<string, unknown>;
  ok: boolean;
}

/**
 * Checks the attributes of `<tag …>` against `specs`. Unknown: a warning, ignored. Duplicated,
 * without a quoted value, or with a value its type refuses: an error, and the attribute is left out
 * (its default applies). A required attribute missing: an error at the tag.
 */
export function checkAttributes(tag: string, parts: TagParts, specs: AttributeSpecs, start: number, end: number, diagnostics: RawDiagnostic[]): CheckedAttributes {
  const values: Record<string, unknown> = {};
  const seen = new Set<string>();
  let ok = true;
  for (const a of parts.attributes) {
    const spec = Object.hasOwn(specs, a.name) ? specs[a.name] : undefined;
    if (spec === undefined) {
      diagnostics.push(unknownAttribute(tag, a, specs));
      continue;
    }
    if (seen.has(a.name)) {
      // Which one was meant is unknown: neither is used.
      diagnostics.push({ code: 'parse/attribute-duplicate', message: `<${tag}> has ${a.name} more than once: write it once`, start: a.start, end: a.end });
      ok &&= !spec.required;
      delete values[a.name];
      continue;
    }
    seen.add(a.name);
    if (a.value === undefined || !a.quoted) {
      const written = a.value === undefined ? '' : unescape(a.value);
      diagnostics.push({ code: 'parse/attribute-invalid', message: `<${tag}> attribute ${a.name} must be written ${a.name}="${written || '…'}" (${spec.type.expected})`, start: a.start, end: a.end });
      ok &&= !spec.required;
      continue;
    }
    const value = unescape(a.value);
    const read = spec.type.read(value);
    if (read === undefined) {
      diagnostics.push({ code: 'parse/attribute-invalid', message: `<${tag}> ${a.name}="${value}" is not valid: expected ${spec.type.expected}`, start: a.valueStart, end: a.valueEnd });
      ok &&= !spec.required;
      continue;
    }
    values[a.name] = read;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (!spec.required || seen.has(name)) continue;
    diagnostics.push({ code: 'parse/attribute-missing', message: `<${tag}> needs ${name}="…" (${spec.type.expected}): nothing is printed for it`, start, end });
    ok = false;
  }
  return { values, ok };
}

function unknownAttribute(tag: string, a: Attribute, specs: AttributeSpecs): RawDiagnostic {
  const names = Object.keys(specs);
  const lower = a.name.toLowerCase();
  const known = names.find((n) => n.toLowerCase() === lower);
  const hint = known ? `; did you mean ${known}?` : names.length ? ` (it takes ${names.join(', ')})` : ' (it takes none)';
  return { code: 'parse/attribute-unknown', message: `<${tag}> has no attribute ${a.name}: it is ignored${hint}`, start: a.start, end: a.end };
}
