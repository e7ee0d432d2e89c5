import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { notFoundUnlessSameAccount } from './index.js';

const mine = '01930000-0000-7000-8000-000000000001';
const theirs = '01930000-0000-7000-8000-000000000002';

describe('notFoundUnlessSameAccount', () => {
  it('passes a record of the same account', () => {
    expect(() => {
      notFoundUnlessSameAccount(mine, mine, 'The contact');
    }).not.toThrow();
  });

  it('answers 404, never 403, for a record of another account', () => {
    let caught: unknown;
    try {
      notFoundUnlessSameAccount(theirs, mine, 'The contact');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ statusCode: 404, code: 'not_found', message: 'The contact was not found.' });
  });
});
