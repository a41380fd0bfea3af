// How a usage error (a TypeError at a wrong call) names the value it was given: its type, and the
// value itself where that is short, so that `'5'` for a number and NaN are told apart.
//
// Before: shown('5'), shown(NaN), shown(null), shown([5])
// After:  'the string "5"', 'the number NaN', 'null', 'an array'

export function shown(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `the ${typeof value} ${value}`;
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Bytes given to a function that reads them (disassemble, the preview): a Uint8Array (a Buffer is one), from any realm. */
export function checkBytes(call: string, bytes: unknown): void {
  if (Object.prototype.toString.call(bytes) !== '[object Uint8Array]') throw new TypeError(`${call}: bytes must be a Uint8Array, not ${shown(bytes)}`);
}
