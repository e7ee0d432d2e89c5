import { autoTopupSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import {
  accountAutoTopupOf,
  autoTopupAmountOptions,
  autoTopupBelowOptions,
  autoTopupFormOf,
  autoTopupRequest,
  autoTopupSavedMessage,
  autoTopupSummary,
  DEFAULT_AUTO_TOPUP_AMOUNT,
  DEFAULT_AUTO_TOPUP_BELOW,
  dollars,
} from './autoTopup';

const rule = { below: '10.0000', amount: '50.0000', stopped: false };

describe('auto top-up options', () => {
  it("are the spec's lists, each one the server takes, and hold the defaults", () => {
    expect(autoTopupBelowOptions).toEqual([0, 10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000]);
    expect(autoTopupAmountOptions).toEqual([10, 20, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000]);
    for (const below of autoTopupBelowOptions) {
      for (const amount of autoTopupAmountOptions) {
        const { body } = autoTopupRequest('acc-1', { enabled: 'true', below, amount }, false);
        expect(autoTopupSchema.safeParse(body).success, `${String(below)} ${String(amount)}`).toBe(true);
      }
    }
    expect(autoTopupBelowOptions).toContain(DEFAULT_AUTO_TOPUP_BELOW);
    expect(autoTopupAmountOptions).toContain(DEFAULT_AUTO_TOPUP_AMOUNT);
  });

  it('show as whole dollars', () => {
    expect(dollars(0)).toBe('$0');
    expect(dollars(1500)).toBe('$1,500');
    expect(dollars('75.0000')).toBe('$75');
  });
});

describe('autoTopupSummary', () => {
  it("says 'Off', the rule, or that a failed payment stopped it", () => {
    expect(autoTopupSummary(null)).toBe('Off');
    expect(autoTopupSummary(undefined)).toBe('Off');
    expect(autoTopupSummary(rule)).toBe('Top up by $50 when below $10');
    expect(autoTopupSummary({ below: '2000.0000', amount: '1000.0000', stopped: false })).toBe('Top up by $1,000 when below $2,000');
    expect(autoTopupSummary({ ...rule, stopped: true })).toBe(
      'Top up by $50 when below $10 (stopped after a failed payment; save it again or change the card to restart it)',
    );
  });
});

describe('autoTopupFormOf', () => {
  it("starts from the account's rule, or off with the defaults", () => {
    expect(autoTopupFormOf({ below: '0.0000', amount: '2000.0000', stopped: true })).toEqual({ enabled: 'true', below: 0, amount: 2000 });
    expect(autoTopupFormOf(null)).toEqual({ enabled: 'false', below: 10, amount: 50 });
    expect(autoTopupFormOf(undefined)).toEqual({ enabled: 'false', below: 10, amount: 50 });
  });

  it('falls back to the defaults for a figure off the lists', () => {
    expect(autoTopupFormOf({ below: '15.0000', amount: '5.0000', stopped: false })).toEqual({ enabled: 'true', below: 10, amount: 50 });
  });
});

describe('autoTopupRequest', () => {
  it("sends below and amount only when enabled is 'true': POST, or PUT over an existing rule", () => {
    const form = { enabled: 'true' as const, below: 20, amount: 100 };
    expect(autoTopupRequest('acc-1', form, false)).toEqual({
      method: 'POST',
      path: '/v1/accounts/acc-1/autotopup',
      body: { below: '20', amount: '100' },
    });
    expect(autoTopupRequest('acc-1', form, true)).toEqual({
      method: 'PUT',
      path: '/v1/accounts/acc-1/autotopup',
      body: { below: '20', amount: '100' },
    });
  });

  it('otherwise sends a removal, with no body, whether or not a rule exists', () => {
    for (const exists of [true, false]) {
      expect(autoTopupRequest('acc-1', { enabled: 'false', below: 20, amount: 100 }, exists)).toEqual({
        method: 'DELETE',
        path: '/v1/accounts/acc-1/autotopup',
      });
    }
  });
});

describe('after a save', () => {
  it("keeps the server's answer as the account record's rule, and says what was saved", () => {
    const on = accountAutoTopupOf({ autotopup: { below: '10.0000', amount: '50.0000' }, stopped: false });
    expect(on).toEqual(rule);
    expect(autoTopupSavedMessage(on)).toBe('Auto top-up on: top up by $50 when below $10');
    const off = accountAutoTopupOf({ autotopup: null, stopped: false });
    expect(off).toBeNull();
    expect(autoTopupSavedMessage(off)).toBe('Auto top-up turned off');
  });
});
