import { describe, expect, it } from 'vitest';
import { textsDecodingAs } from '../../test/signatures.js';
import { sameSecretText } from './sameSecretText.js';

describe('sameSecretText', () => {
  const signature = Buffer.alloc(32, 7).toString('base64url');

  it('accepts the same text only', () => {
    expect(sameSecretText(signature, signature)).toBe(true);
    expect(sameSecretText(`${signature.slice(0, -2)}xx`, signature)).toBe(false);
    expect(sameSecretText('', signature)).toBe(false);
    expect(sameSecretText(signature.slice(1), signature)).toBe(false);
    expect(sameSecretText('é', 'e')).toBe(false);
  });

  it('refuses other texts that decode to the same bytes', () => {
    for (const other of textsDecodingAs(signature)) {
      expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(sameSecretText(other, signature), other).toBe(false);
    }
  });
});
