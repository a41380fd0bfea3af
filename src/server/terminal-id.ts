// A terminal's id, as an operator names it (`bobina terminals add --terminal`): at most
// TERMINAL_ID_MAX characters, the most GET /Terminal/GetById and the job list's filter take (so every
// terminal can be looked up, and paged past: fleet/page-cursor.ts), and no control character.

export const TERMINAL_ID_MAX = 200;

/** Why `id` cannot name a terminal, or undefined when it can. */
export function terminalIdRefusal(id: string): string | undefined {
  if (id.length === 0) return 'a terminal id cannot be empty';
  if ([...id].length > TERMINAL_ID_MAX) return `a terminal id is at most ${TERMINAL_ID_MAX} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'a terminal id cannot hold a control character';
  return undefined;
}
