import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('mail configuration', () => {
  it('keeps mail in the local mailbox by default, from Parley <no-reply@localhost>', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'Parley <no-reply@localhost>' });
  });

  it('reads SMTP_URL and MAIL_FROM', () => {
    const config = loadConfig({ SMTP_URL: 'smtps://user:pw@smtp.example.com:465', MAIL_FROM: 'Acme <hello@acme.test>' });
    expect(config.mail).toEqual({ smtpUrl: 'smtps://user:pw@smtp.example.com:465', from: 'Acme <hello@acme.test>' });
    expect(loadConfig({ SMTP_URL: 'smtp://localhost:1025', MAIL_FROM: 'hello@acme.test' }).mail.from).toBe('hello@acme.test');
  });

  it('names the variable of a bad value, and never repeats the URL (it may hold a password)', () => {
    for (const bad of ['https://user:secret@smtp.example.com', 'smtp://', 'smtp.example.com', 'smtp://:secret@']) {
      const found = problems({ SMTP_URL: bad });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
      expect(found[0]).not.toContain('secret');
    }
    for (const bad of ['no-reply', 'Parley <no-reply>', 'a@b.c, d@e.f', 'Evil\n<x@y.z>']) {
      expect(problems({ MAIL_FROM: bad })).toEqual([
        'MAIL_FROM: must be an e-mail address, optionally with a name: Parley <no-reply@example.com>',
      ]);
    }
  });
});
