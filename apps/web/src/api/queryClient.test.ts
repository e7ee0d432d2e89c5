import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { shouldRetry } from './queryClient';

describe('shouldRetry', () => {
  it('retries network and server errors twice', () => {
    expect(shouldRetry(0, new ApiError('Unknown error.'))).toBe(true);
    expect(shouldRetry(1, new ApiError('x', 503))).toBe(true);
    expect(shouldRetry(2, new ApiError('x', 503))).toBe(false);
  });

  it('does not retry answers the client caused', () => {
    expect(shouldRetry(0, new ApiError('x', 400))).toBe(false);
    expect(shouldRetry(0, new ApiError('x', 401))).toBe(false);
    expect(shouldRetry(0, new ApiError('x', 404))).toBe(false);
    expect(shouldRetry(0, new Error('x'))).toBe(false);
  });
});
