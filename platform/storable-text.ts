/**
 * Text PostgreSQL can store. It refuses U+0000 in `text` (22021) and `jsonb` (22P05), and a UTF-16 surrogate without
 * its other half as a `\u` escape in `jsonb` (22P02); in `text` the driver's UTF-8 encoding silently turns such a
 * surrogate into U+FFFD. Both are valid in JSON and in JavaScript strings, so they arrive in request bodies.
 */

/** An unpaired surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, 'g');

export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/** `s` with NUL and unpaired surrogates replaced by U+FFFD (what a UTF-8 encoder writes for the latter). */
export function storableText(s: string): string {
  return s.replace(UNSTORABLE, '\uFFFD');
}
