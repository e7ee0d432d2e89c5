import { describe, expect, it } from 'vitest';
import { formatMoney, MONEY_PATTERN, moneyAsNumber } from './money.js';

describe('formatMoney', () => {
  it('writes exactly 4 decimals by string operations', () => {
    expect(formatMoney('5')).toBe('5.0000');
    expect(formatMoney('12.5')).toBe('12.5000');
    expect(formatMoney('0.0079')).toBe('0.0079');
    expect(formatMoney('007.10')).toBe('7.1000');
    expect(formatMoney('12.34560')).toBe('12.3456');
    expect(formatMoney('-0')).toBe('0.0000');
    expect(formatMoney('-3.2')).toBe('-3.2000');
    expect(formatMoney('123456789012.0001')).toBe('123456789012.0001');
    expect(formatMoney('5.')).toBe('5.0000');
    for (const v of ['5', '0.1', '99.9999']) expect(formatMoney(v)).toMatch(MONEY_PATTERN);
  });

  it('refuses what is not a decimal with at most 4 decimals', () => {
    for (const bad of ['', 'abc', '1e3', '0.00001', '1,5', '.5']) expect(() => formatMoney(bad), bad).toThrow();
  });
});

describe('moneyAsNumber', () => {
  it('writes the exact decimal as a JSON number', () => {
    const cases: [string, string][] = [
      ['0.0079', '0.0079'],
      ['0.0100', '0.01'],
      ['0', '0'],
      ['12.5', '12.5'],
      ['-3.2000', '-3.2'],
      ['0.0003', '0.0003'],
      ['12345678901.2345', '12345678901.2345'],
    ];
    for (const [value, json] of cases) expect(JSON.stringify(moneyAsNumber(value)), value).toBe(json);
  });

  it('refuses what is not money, and amounts too long for a double to keep exactly', () => {
    for (const bad of ['', '0.00001', '1e3']) expect(() => moneyAsNumber(bad), bad).toThrow();
    expect(() => moneyAsNumber('123456789012.0001')).toThrow(/too many digits/);
  });
});
