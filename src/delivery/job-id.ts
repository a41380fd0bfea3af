// A print intention's id where a client gives one (a query's intencaoImpressaoId or apos, Reportar's
// and Renovar's intencaoImpressaoId, `bobina jobs`' ID and `bobina webhooks log --intention`; the
// logger shows a query's id of this form): 0 to JOB_ID_MAX, at most JOB_ID_DIGITS digits. The ids
// the service makes stay far below it; it keeps an id exact in a JavaScript number and within
// PostgreSQL's bigint, so a larger one is refused as a bad request before any query (on PostgreSQL,
// 9223372036854775807 in a body was a 500: out of range for type bigint).

export const JOB_ID_DIGITS = 15;

/** The greatest id a client may give: 999,999,999,999,999 (15 digits). */
export const JOB_ID_MAX = 10 ** JOB_ID_DIGITS - 1;

/** An id written in a query or on a command line: 1 to 15 digits. */
export const JOB_ID_PATTERN = `^[0-9]{1,${JOB_ID_DIGITS}}$`;
