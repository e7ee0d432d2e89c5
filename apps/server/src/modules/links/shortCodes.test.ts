import { describe, expect, it } from 'vitest';
import { SHORT_CODE_PATTERN } from '@parley/shared';
import { newShortCode } from './shortCodes.js';

describe('short codes', () => {
  it('are 7 base62 characters and do not repeat over many draws', () => {
    const codes = Array.from({ length: 20_000 }, () => newShortCode());
    for (const code of codes) expect(code).toMatch(SHORT_CODE_PATTERN);
    expect(codes.every((c) => c.length === 7)).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
    // Every character of the alphabet turns up: no narrowed range.
    expect(new Set(codes.join('')).size).toBe(62);
  });
});
