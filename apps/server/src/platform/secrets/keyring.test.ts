import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretCipher } from './cipher.js';
import { canStoreSecrets, secretsCipher, SecretsKeyMissingError } from './keyring.js';

describe('secretsCipher', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-secrets-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uses SECRETS_KEY when it is set, touching no file', async () => {
    const key = crypto.randomBytes(32);
    const cipher = await secretsCipher({ key, keyFile: null });
    expect(new SecretCipher(key).decrypt(cipher.encrypt('x'))).toBe('x');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('generates the embedded key file once, mode 0600, and reuses it', async () => {
    const keyFile = path.join(dir, 'nested', 'secrets.key');
    const [first, concurrent] = await Promise.all([secretsCipher({ key: null, keyFile }), secretsCipher({ key: null, keyFile })]);
    expect(concurrent).toBe(first);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const stored = fs.readFileSync(keyFile, 'utf8');
    expect(Buffer.from(stored.trim(), 'base64')).toHaveLength(32);
    const text = first.encrypt('secret12');

    // A later start (nothing cached) reads the same file and decrypts what the first one wrote.
    const otherKeyFile = path.join(dir, 'copy.key');
    fs.copyFileSync(keyFile, otherKeyFile);
    const restarted = await secretsCipher({ key: null, keyFile: otherKeyFile });
    expect(restarted).not.toBe(first);
    expect(restarted.decrypt(text)).toBe('secret12');
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(stored);
  });

  it('never overwrites an existing key file and refuses one that holds no key', async () => {
    const keyFile = path.join(dir, 'secrets.key');
    const key = crypto.randomBytes(32);
    fs.writeFileSync(keyFile, key.toString('hex'), { mode: 0o600 });
    const cipher = await secretsCipher({ key: null, keyFile });
    expect(new SecretCipher(key).decrypt(cipher.encrypt('kept'))).toBe('kept');

    const broken = path.join(dir, 'broken.key');
    fs.writeFileSync(broken, 'not a key');
    await expect(secretsCipher({ key: null, keyFile: broken })).rejects.toThrow(/broken\.key does not hold a secrets key/);
    expect(fs.readFileSync(broken, 'utf8')).toBe('not a key');
  });

  it('refuses on PostgreSQL without SECRETS_KEY', async () => {
    expect(canStoreSecrets({ key: null, keyFile: null })).toBe(false);
    await expect(secretsCipher({ key: null, keyFile: null })).rejects.toBeInstanceOf(SecretsKeyMissingError);
    await expect(secretsCipher({ key: null, keyFile: null })).rejects.toThrow(/need SECRETS_KEY/);
  });
});
