import { describe, expect, it } from 'vitest';
import { isLowBalance, upgradeLabel } from './topBarLabels';

describe('upgradeLabel', () => {
  it('counts the days left of a running trial', () => {
    expect(upgradeLabel({ daysLeft: 12, expired: false })).toBe('Upgrade (12 days left)');
    expect(upgradeLabel({ daysLeft: 1, expired: false })).toBe('Upgrade (1 day left)');
  });

  it('says Expired once the trial has run out', () => {
    expect(upgradeLabel({ daysLeft: 0, expired: true })).toBe('Expired');
    expect(upgradeLabel({ daysLeft: 0, expired: false })).toBe('Expired');
  });
});

describe('isLowBalance', () => {
  it('warns under 5 only', () => {
    expect(isLowBalance('4.9999')).toBe(true);
    expect(isLowBalance('0.0000')).toBe(true);
    expect(isLowBalance('5.0000')).toBe(false);
    expect(isLowBalance('120.5000')).toBe(false);
  });
});
