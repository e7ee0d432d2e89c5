import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { textsDecodingAs } from '../../test/signatures.js';
import { mediaSigningKey, MediaUrlSigner } from './signing.js';

const fileId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const now = new Date('2030-01-01T00:00:00Z');

describe('MediaUrlSigner', () => {
  const signer = new MediaUrlSigner('https://sms.example.test', Buffer.alloc(32, 7));
  const parts = (url: string) => {
    const parsed = new URL(url);
    return { expires: Number(parsed.searchParams.get('expires')), signature: parsed.searchParams.get('signature') ?? '' };
  };

  it('accepts its own URL until it expires', () => {
    const { expires, signature } = parts(signer.signedUrl(fileId, now, 60));
    expect(signer.check(fileId, expires, signature, now)).toBe('valid');
    expect(signer.check(fileId, expires, signature, new Date(now.getTime() + 60_000))).toBe('valid');
    expect(signer.check(fileId, expires, signature, new Date(now.getTime() + 61_000))).toBe('expired');
  });

  it('refuses a changed file, expiry or signature, and another key', () => {
    const { expires, signature } = parts(signer.signedUrl(fileId, now));
    expect(signer.check('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d', expires, signature, now)).toBe('invalid');
    expect(signer.check(fileId, expires + 1, signature, now)).toBe('invalid');
    expect(signer.check(fileId, expires, signature.slice(1), now)).toBe('invalid');
    expect(signer.check(fileId, expires, undefined, now)).toBe('invalid');
    expect(new MediaUrlSigner('https://sms.example.test', Buffer.alloc(32, 8)).check(fileId, expires, signature, now)).toBe('invalid');
  });

  it('refuses other texts that decode to the same signature', () => {
    for (let n = 0; n < 8; n++) {
      const { expires, signature } = parts(signer.signedUrl(fileId, new Date(now.getTime() + n * 1000)));
      for (const other of textsDecodingAs(signature)) {
        expect(signer.check(fileId, expires, other, now), other).toBe('invalid');
      }
      expect(signer.check(fileId, expires, signature, now)).toBe('valid');
    }
  });
});

describe('mediaSigningKey', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-signing-'));
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('derives a key of its own from SECRETS_KEY', async () => {
    const secretsKey = Buffer.alloc(32, 1);
    const key = await mediaSigningKey({ key: secretsKey, keyFile: null }, false);
    expect(key?.length).toBe(32);
    expect(key?.equals(secretsKey)).toBe(false);
  });

  it('makes the embedded key file only when signing, and has none on PostgreSQL without SECRETS_KEY', async () => {
    const keyFile = path.join(dir, 'secrets.key');
    expect(await mediaSigningKey({ key: null, keyFile }, false)).toBeNull();
    expect(fs.existsSync(keyFile)).toBe(false);
    const made = await mediaSigningKey({ key: null, keyFile }, true);
    expect(fs.existsSync(keyFile)).toBe(true);
    expect((await mediaSigningKey({ key: null, keyFile }, false))?.equals(made ?? Buffer.alloc(0))).toBe(true);
    expect(await mediaSigningKey({ key: null, keyFile: null }, true)).toBeNull();
  });
});
