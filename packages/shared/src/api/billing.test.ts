import { describe, expect, it } from 'vitest';
import { AUTO_TOPUP_AMOUNT_OPTIONS, AUTO_TOPUP_BELOW_OPTIONS, AUTO_TOPUP_OPTION_MESSAGE, autoTopupSchema } from './billing.js';

const belowSpec = [0, 10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000];
const amountSpec = [10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000];

const issuesOf = (input: unknown): string[] => {
  const result = autoTopupSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('autoTopupSchema', () => {
  it("offers the spec's options, and takes each of them as a number or a decimal string", () => {
    expect([...AUTO_TOPUP_BELOW_OPTIONS]).toEqual(belowSpec);
    expect([...AUTO_TOPUP_AMOUNT_OPTIONS]).toEqual(amountSpec);
    for (const below of belowSpec) {
      expect(autoTopupSchema.parse({ below, amount: 10 }).below, String(below)).toBe(`${String(below)}.0000`);
      expect(autoTopupSchema.parse({ below: String(below), amount: '10' }).below).toBe(`${String(below)}.0000`);
    }
    for (const amount of amountSpec) expect(autoTopupSchema.parse({ below: 0, amount: String(amount) }).amount).toBe(`${String(amount)}.0000`);
  });

  it('refuses an amount off the lists with its message', () => {
    expect(issuesOf({ below: 11, amount: 20 })).toEqual([`below: ${AUTO_TOPUP_OPTION_MESSAGE}`]);
    expect(issuesOf({ below: 10, amount: 0 })).toEqual([`amount: ${AUTO_TOPUP_OPTION_MESSAGE}`]);
    expect(issuesOf({ below: 2500, amount: 2500 })).toEqual([`below: ${AUTO_TOPUP_OPTION_MESSAGE}`, `amount: ${AUTO_TOPUP_OPTION_MESSAGE}`]);
    expect(issuesOf({ below: -10, amount: 10.5 })).toHaveLength(2);
  });

  it('takes an option written with zero decimals, and refuses one with a fraction', () => {
    expect(autoTopupSchema.parse({ below: '75.00', amount: ' 1500.0000 ' })).toEqual({ below: '75.0000', amount: '1500.0000' });
    expect(issuesOf({ below: '75.5', amount: 20 })).toEqual([`below: ${AUTO_TOPUP_OPTION_MESSAGE}`]);
  });

  it('refuses what is not a number, and an empty or missing field, rather than reading it as 0', () => {
    expect(issuesOf({ below: 'ten', amount: 20 })).toEqual(['below: Must be a number']);
    expect(issuesOf({ below: '1e1', amount: 20 })).toEqual(['below: Must be a number']);
    expect(issuesOf({ below: true, amount: 20 })).toEqual(['below: Must be a number']);
    expect(issuesOf({ below: null, amount: 20 })).toEqual(['below: Must be a number']);
    expect(issuesOf({ below: '', amount: 20 })).toEqual(['below: Required']);
    expect(issuesOf({ below: '  ', amount: 20 })).toEqual(['below: Required']);
    expect(issuesOf({ amount: 20 })).toEqual(['below: Required']);
    expect(issuesOf({ below: 10 })).toEqual(['amount: Required']);
  });
});
