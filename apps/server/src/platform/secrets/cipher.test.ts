import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretCipher, SecretDecryptionError } from './cipher.js';

const key = crypto.randomBytes(32);
const cipher = new SecretCipher(key);

describe('SecretCipher (AES-256-GCM)', () => {
  it('round-trips a secret, with a fresh IV each time and no plaintext in the stored text', () => {
    const secret = 'f3b9c1d2e4a5b6c7d8e9f0a1b2c3d4e5 ✓';
    const first = cipher.encrypt(secret, 'row-1');
    const second = cipher.encrypt(secret, 'row-1');
    expect(first).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('f3b9c1d2');
    expect(Buffer.from(first.split('.')[2] ?? '', 'base64url').toString('latin1')).not.toContain('f3b9c1d2');
    expect(cipher.decrypt(first, 'row-1')).toBe(secret);
    expect(cipher.decrypt(second, 'row-1')).toBe(secret);
    expect(new SecretCipher(Buffer.from(key)).decrypt(cipher.encrypt(''), '')).toBe('');
  });

  it('refuses an altered ciphertext, tag or IV', () => {
    const text = cipher.encrypt('secret12');
    const [version, keyId, payload = ''] = text.split('.');
    const sealed = Buffer.from(payload, 'base64url');
    for (const index of [0, 12, 28, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[index] = (altered[index] ?? 0) ^ 0x01;
      expect(() => cipher.decrypt(`${version ?? ''}.${keyId ?? ''}.${altered.toString('base64url')}`), `byte ${String(index)}`).toThrow(
        /fails its integrity check/,
      );
    }
    expect(() => cipher.decrypt(`${version ?? ''}.${keyId ?? ''}.${sealed.subarray(0, 20).toString('base64url')}`)).toThrow(/truncated/);
  });

  it('refuses a ciphertext of another key, saying so', () => {
    const other = new SecretCipher(crypto.randomBytes(32));
    const text = other.encrypt('secret12');
    expect(() => cipher.decrypt(text)).toThrow(SecretDecryptionError);
    expect(() => cipher.decrypt(text)).toThrow(/encrypted with another key .*was SECRETS_KEY changed\?/);
    // Even with the key id forged to match, the tag does not verify under this key.
    const forged = text.replace(/^v1\.[0-9a-f]{8}\./, `v1.${cipher.keyId}.`);
    expect(() => cipher.decrypt(forged)).toThrow(/fails its integrity check/);
  });

  it('refuses a ciphertext moved to another context (another row)', () => {
    const text = cipher.encrypt('token', 'carrier_settings:a');
    expect(() => cipher.decrypt(text, 'carrier_settings:b')).toThrow(/fails its integrity check/);
  });

  it('refuses text that is not its format', () => {
    for (const bad of ['secret12', 'v2.abcd1234.AAAA', 'v1.abcd1234', 'v1.abcd1234.not base64!']) {
      expect(() => cipher.decrypt(bad), bad).toThrow(/not in a format/);
    }
  });

  it('takes only 32-byte keys', () => {
    expect(() => new SecretCipher(crypto.randomBytes(16))).toThrow(/32 bytes/);
  });
});
