const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The i-th short code of a benchmark: 7 base62 characters, the same in Parley's seed and the baseline. */
export function benchCode(i: number): string {
  let rest = i;
  let code = '';
  for (let k = 0; k < 6; k += 1) {
    code = ALPHABET.charAt(rest % 62) + code;
    rest = Math.floor(rest / 62);
  }
  return `B${code}`;
}
