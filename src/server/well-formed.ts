// Text the service stores must be well-formed Unicode: a lone surrogate has no UTF-8, so SQLite and
// PostgreSQL would keep U+FFFD or other bytes, and what a request was answered would not be what is
// read back. One check for every place that refuses one (Insert's fields, webhook URLs, e-mails).

/** The first lone surrogate in `text`, as U+XXXX with its offset (in unicode mode \p{Cs} matches only a surrogate that is not half of a pair). */
export function loneSurrogate(text: string): { unit: string; offset: number } | undefined {
  const m = /\p{Cs}/u.exec(text);
  return m ? { unit: `U+${m[0].charCodeAt(0).toString(16).toUpperCase()}`, offset: m.index } : undefined;
}
