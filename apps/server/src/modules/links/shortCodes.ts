import { randomInt } from 'node:crypto';
import { SHORT_CODE_LENGTH } from '@parley/shared';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A short code of base62 characters drawn from the CSPRNG (randomInt has no modulo bias): 62^7 codes,
 * so guessing live ones in bulk is hopeless (docs/links.md, "Codes").
 */
export function newShortCode(length = SHORT_CODE_LENGTH): string {
  let code = '';
  for (let i = 0; i < length; i += 1) code += ALPHABET.charAt(randomInt(ALPHABET.length));
  return code;
}
