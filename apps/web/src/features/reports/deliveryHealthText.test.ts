import { describe, expect, it } from 'vitest';
import type { DeliveryHealth } from '@parley/shared';
import { carrierErrorText, deliveryHealthLines } from './deliveryHealthText';

const health = (over: Partial<DeliveryHealth>): DeliveryHealth => ({
  since: '2026-12-02T10:00:00.000Z',
  level: 'green',
  outbound: 0,
  delivered: 0,
  errors: 0,
  awaiting: 0,
  queued: 0,
  heldForQuietHours: 0,
  deliveryRate: null,
  errorRate: null,
  recipients: 0,
  optOuts: 0,
  carrierErrors: [],
  recentErrors: [],
  ...over,
});

describe('delivery health texts', () => {
  it('says nothing of what is not there', () => {
    expect(deliveryHealthLines(health({ level: 'none' }))).toEqual([]);
  });

  it('gives the rates, the waiting and held texts, and the opt-outs', () => {
    expect(
      deliveryHealthLines(health({ outbound: 23, recipients: 2, deliveryRate: 0.8571, errorRate: 0.1429, awaiting: 1, heldForQuietHours: 1, optOuts: 1 })),
    ).toEqual([
      '23 texts sent to 2 contacts',
      '85.7% delivered, 14.3% with errors (of those with a final status)',
      "1 text waiting for the carrier's receipt",
      "1 text held until the recipients' quiet hours end",
      '1 contact opted out (STOP)',
    ]);
  });

  it('names carrier errors by code and text', () => {
    expect(carrierErrorText({ code: '30006', description: 'Landline or unreachable carrier', count: 2 })).toBe('Error 30006: Landline or unreachable carrier (2)');
    expect(carrierErrorText({ code: '', description: '', count: 1 })).toBe('No code (1)');
  });
});
