import { describe, expect, it } from 'vitest';
import { typeOfNumber } from '../modules/phoneNumbers/phoneNumberCarrier.js';
import { uniqueTestNumber } from './phoneNumbers.js';

describe('uniqueTestNumber', () => {
  it('draws only long codes, never a toll-free number, and never the same number twice', () => {
    // 3,000 draws cover every toll-free area code (7 of 789) many times over.
    const drawn = Array.from({ length: 3_000 }, () => uniqueTestNumber());
    expect(drawn.filter((number) => typeOfNumber(number) !== 'longcode')).toEqual([]);
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});
