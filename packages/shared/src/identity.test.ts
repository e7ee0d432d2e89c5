import { describe, expect, it } from 'vitest';
import { profileUpdateSchema, signUpSchema } from './identity.js';

const valid = {
  firstName: ' Ada ',
  lastName: 'Lovelace',
  email: 'Ada@Example.COM',
  mobile: { country: 'US', number: '415 555 2671' },
  password: 'Analytical-1843',
  tac: true,
  communication: true,
};

const messages = (input: unknown): Record<string, string> => {
  const result = signUpSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('sign-up', () => {
  it('accepts a complete form and normalises it', () => {
    expect(signUpSchema.parse(valid)).toMatchObject({
      firstName: 'Ada',
      email: 'ada@example.com',
      mobile: { country: 'US', number: '+14155552671' },
    });
  });

  it('refuses each missing or bad field with its message', () => {
    expect(messages({ ...valid, firstName: '  ' })).toEqual({ firstName: 'Required' });
    expect(messages({ ...valid, email: 'ada@' })).toEqual({ email: 'Invalid email address' });
    expect(messages({ ...valid, password: 'password' }).password).toMatch(/^Password is too weak\n/);
    expect(messages({ ...valid, mobile: { country: 'FR', number: '+33612345678' } })).toEqual({
      'mobile.number': 'Country is not valid',
    });
    expect(Object.keys(messages({ ...valid, tac: false, communication: false })).sort()).toEqual([
      'communication',
      'tac',
    ]);
  });
});

describe('profile', () => {
  it('requires names and a valid mobile', () => {
    expect(profileUpdateSchema.safeParse({ firstName: 'A', lastName: 'B', mobile: { country: 'DE', number: '01511 2345678' } }).success).toBe(true);
    const result = profileUpdateSchema.safeParse({ firstName: '', lastName: 'B', mobile: { country: 'US', number: '' } });
    expect(result.error?.issues.map((i) => i.message).sort()).toEqual(['Number is missing', 'Required']);
  });
});
