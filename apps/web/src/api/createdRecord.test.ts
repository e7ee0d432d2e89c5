import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorMessages } from './client';
import { createdRecord } from './createdRecord';

describe('createdRecord', () => {
  it('is the one record of a create answer', () => {
    expect(createdRecord({ success: true, data: [{ id: 'a' }] })).toEqual({ id: 'a' });
  });

  it('refuses an answer without a record as unrecognized', () => {
    expect(() => createdRecord({ success: true, data: [] })).toThrow(new ApiError(apiErrorMessages.unrecognized));
  });
});
