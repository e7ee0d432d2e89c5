import { describe, expect, it } from 'vitest';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with argon2id and a random salt', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('pässwörd 🔑');
    expect(await verifyPassword(stored, 'pässwörd 🔑')).toBe(true);
    expect(await verifyPassword(stored, 'passwort 🔑')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('answers false for a stored value that is not a hash', async () => {
    expect(await verifyPassword('plain text', 'plain text')).toBe(false);
    expect(await verifyPassword('', '')).toBe(false);
  });

  it('spends a verification without a user', async () => {
    await expect(verifyNothing('anything')).resolves.toBeUndefined();
  });
});
