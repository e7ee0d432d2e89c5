import { describe, expect, it } from 'vitest';
import type { NumberTypeCheck } from '@parley/shared';
import { checkNumberTypesQuestion, isFinished, numberTypeProgressText, numberTypeSummary, priceOf } from './numberTypeCheckText';

const check = (over: Partial<NumberTypeCheck>): NumberTypeCheck => ({
  id: '0190a000-0000-7000-8000-000000000000',
  status: 'running',
  total: 3,
  processed: 0,
  checked: 0,
  alreadyChecked: 0,
  skipped: 0,
  notPaid: 0,
  createdAt: '2026-12-03T10:00:00.000Z',
  finishedAt: null,
  ...over,
});

describe('Check number types texts', () => {
  it('prices a selection exactly, in cents', () => {
    expect(priceOf(1)).toBe('$0.01');
    expect(priceOf(500)).toBe('$5.00');
    expect(priceOf(3, '0.0049')).toBe('$0.02');
    expect(priceOf(0)).toBe('$0.00');
  });

  it('asks with the count and the most it may cost', () => {
    expect(checkNumberTypesQuestion(2)).toBe(
      "Look up the type (mobile, landline, VoIP …) of the 2 selected contacts' numbers? Each contact without a type costs $0.01 from the balance, at most $0.02 in all; contacts checked before are free.",
    );
  });

  it('reports progress, and only the counts that are not zero', () => {
    expect(numberTypeProgressText(check({ processed: 2 }))).toBe('2 of 3 contacts looked at');
    expect(isFinished(check({}))).toBe(false);
    const done = check({ status: 'completed', processed: 3, checked: 1, skipped: 2 });
    expect(isFinished(done)).toBe(true);
    expect(numberTypeSummary(done)).toEqual(['1 contact given a type', '2 contacts skipped: no valid number, or removed']);
    expect(numberTypeSummary(check({ status: 'failed', processed: 1, notPaid: 1 }))).toEqual([
      'The check stopped before it finished; the contacts counted here were checked.',
      '1 contact not checked: the balance could not pay',
    ]);
  });
});
