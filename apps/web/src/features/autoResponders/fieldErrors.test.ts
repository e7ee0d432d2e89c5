import { describe, expect, it } from 'vitest';
import { AUTO_RESPONDER_MATCH_TAKEN_MESSAGE, AUTO_RESPONDERS_MAX_MESSAGE } from '@parley/shared';
import { ApiError } from '../../api/client';
import { saveErrorsOf } from './fieldErrors';

describe('saveErrorsOf', () => {
  it('puts each validation message on its field', () => {
    const error = new ApiError('match: Required; response: At most 1600 characters', 400, 'validation_failed');
    expect(saveErrorsOf(error)).toEqual({ fields: { match: 'Required', response: 'At most 1600 characters' }, form: null });
  });

  it("keeps a regular expression's message whole, even when it holds '; '", () => {
    const message = 'match: Invalid regular expression: missing closing ): `(a; b`';
    expect(saveErrorsOf(new ApiError(message, 400, 'validation_failed'))).toEqual({
      fields: { match: 'Invalid regular expression: missing closing ): `(a; b`' },
      form: null,
    });
  });

  it('shows the first message of a field, and what names no field under the form', () => {
    const error = new ApiError('The request is odd; match: Required; match: At most 200 characters', 400, 'validation_failed');
    expect(saveErrorsOf(error)).toEqual({ fields: { match: 'Required' }, form: 'The request is odd' });
  });

  it('puts a taken match on Match and other refusals under the form', () => {
    expect(saveErrorsOf(new ApiError(AUTO_RESPONDER_MATCH_TAKEN_MESSAGE, 409, 'conflict'))).toEqual({
      fields: { match: AUTO_RESPONDER_MATCH_TAKEN_MESSAGE },
      form: null,
    });
    expect(saveErrorsOf(new ApiError(AUTO_RESPONDERS_MAX_MESSAGE, 409, 'conflict'))).toEqual({ fields: {}, form: AUTO_RESPONDERS_MAX_MESSAGE });
    expect(saveErrorsOf(new ApiError('match: looks like a field', 500))).toEqual({ fields: {}, form: 'match: looks like a field' });
  });
});
