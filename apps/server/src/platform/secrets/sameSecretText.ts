import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a presented secret text (a signature, a key, a token) is the expected one, in a time that does not
 * tell how much of it matched. Texts are compared, not their decoded bytes: a base64 decoder ignores the last
 * character's spare bits and any character outside its alphabet, so several texts would pass for one signature.
 */
export function sameSecretText(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
