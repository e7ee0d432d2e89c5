import { describe, expect, it } from 'vitest';
import { numberTypeOf } from '@parley/shared';
import { typeOfNumber } from '../modules/phoneNumbers/phoneNumberCarrier.js';
import { uniqueTestNumber } from './phoneNumbers.js';

describe('uniqueTestNumber', () => {
  it('draws only geographic long codes, never a toll-free or personal number, and never the same number twice', () => {
    // 3,000 draws cover every toll-free (7 of 789) and personal-number (9 of 789) area code many times over.
    const drawn = Array.from({ length: 3_000 }, () => uniqueTestNumber());
    expect(drawn.filter((number) => typeOfNumber(number) !== 'longcode')).toEqual([]);
    expect(drawn.filter((number) => numberTypeOf(number) !== 'FIXED_LINE_OR_MOBILE')).toEqual([]);
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});
