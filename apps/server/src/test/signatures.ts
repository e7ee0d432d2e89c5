const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Other texts a base64url decoder reads as the same bytes as `signature` (a 32-byte MAC, 43 characters): the
 * last character with a spare bit flipped (its two low bits carry nothing), padding, a character outside the
 * alphabet, a leading space. A check that compares decoded bytes accepts every one of them.
 */
export function textsDecodingAs(signature: string): string[] {
  if (signature.length !== 43) throw new Error(`textsDecodingAs expects a 43-character signature, got ${String(signature.length)}`);
  const last = BASE64URL.indexOf(signature.slice(-1));
  const spare = `${signature.slice(0, -1)}${BASE64URL[last ^ 1] ?? ''}`;
  return [spare, `${signature}=`, `${signature}!`, ` ${signature}`];
}

/** A signature of the same length and alphabet that differs from `signature` in its first character. */
export function changedSignature(signature: string): string {
  return `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
}
