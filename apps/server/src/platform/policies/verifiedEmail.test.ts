import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { requireVerifiedEmail, UNVERIFIED_EMAIL_MESSAGE } from './verifiedEmail.js';

describe('requireVerifiedEmail', () => {
  it('lets a verified user through', () => {
    expect(() => {
      requireVerifiedEmail({ emailVerifiedAt: new Date() });
    }).not.toThrow();
  });

  it('refuses an unverified user with 403 and the reason', () => {
    let caught: unknown;
    try {
      requireVerifiedEmail({ emailVerifiedAt: null });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ statusCode: 403, code: 'forbidden', message: UNVERIFIED_EMAIL_MESSAGE });
    expect(UNVERIFIED_EMAIL_MESSAGE).toBe(
      'Verify your email address first: you cannot send messages or make chargeable changes until it is verified.',
    );
  });
});
