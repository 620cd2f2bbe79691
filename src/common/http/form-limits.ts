/**
 * Most fields of one form body (application/x-www-form-urlencoded, every route): the website's
 * largest form has a few dozen. More is 413 payload_too_large, never a parse of thousands of keys.
 */
export const FORM_FIELD_LIMIT = 1000;

/** The message of that 413, for people (the website's error page) and programs alike. */
export const TOO_MANY_FIELDS_MESSAGE = `The form has too many fields: at most ${FORM_FIELD_LIMIT} are accepted.`;
