// Field checks for values built by hand (AST nodes given to lower(), IR ops given to emit()): what
// each field of a node or an op must hold. Numbers and names a tag attribute also carries are
// checked by the parser's own attribute type (elements.ts), so a range is written once.
import { ATTRIBUTE_SPECS } from '../parse/elements.js';
import type { ElementTag } from '../parse/tags.js';

/** Whether one field's value is acceptable. */
export type Field = (value: unknown) => boolean;
/** Field name → its check. The span (`start`, `end`) is checked for every node and op. */
export type Shape = Readonly<Record<string, Field>>;

export const string: Field = (v) => typeof v === 'string';
export const boolean: Field = (v) => typeof v === 'boolean';
/** A source offset: a whole number ≥ 0. */
export const offset: Field = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
export const optional = (field: Field): Field => (v) => v === undefined || field(v);
export const oneOf = (...values: readonly unknown[]): Field => (v) => values.includes(v);
export const integer = (min: number, max: number): Field => (v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
export const arrayOf = (field: Field): Field => (v) => Array.isArray(v) && v.every(field);

/** A number within the range of attribute `name` of `<tag>` (`<barcode height>`: 1–255). */
export function numberAttribute(tag: ElementTag, name: string): Field {
  const { type } = ATTRIBUTE_SPECS[tag][name]!;
  return (v) => typeof v === 'number' && Number.isFinite(v) && type.read(String(v)) !== undefined;
}

/** A string attribute `name` of `<tag>` takes (`<barcode text>`: none, above, below, both). */
export function stringAttribute(tag: ElementTag, name: string): Field {
  const { type } = ATTRIBUTE_SPECS[tag][name]!;
  return (v) => typeof v === 'string' && type.read(v) !== undefined;
}

/** The first field of `value` its shape refuses (its span included), or undefined when all are fine. */
export function shapeError(value: unknown, shape: Shape): string | undefined {
  if (typeof value !== 'object' || value === null) return 'itself (not an object)';
  const fields = value as Record<string, unknown>;
  if (!offset(fields.start) || !offset(fields.end) || (fields.end as number) < (fields.start as number)) return 'start/end';
  for (const name in shape) if (!shape[name]!(fields[name])) return name;
  return undefined;
}

/** A value for a message: short, whatever it is. */
export function show(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'symbol' ? 'a symbol' : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
