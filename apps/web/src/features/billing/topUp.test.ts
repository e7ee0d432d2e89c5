import { topupSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import {
  defaultTopUpAmount,
  isTopUpAmount,
  newIdempotencyKey,
  toppedUpMessage,
  topUpAmounts,
  topUpRequest,
} from './topUp';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('top-up amounts', () => {
  it('are 10 to 1,000 in steps of 10, ascending, each one the server takes', () => {
    expect(topUpAmounts).toHaveLength(100);
    expect(topUpAmounts.slice(0, 3)).toEqual([10, 20, 30]);
    expect(topUpAmounts.at(-1)).toBe(1000);
    expect([...topUpAmounts].sort((a, b) => a - b)).toEqual(topUpAmounts);
    for (const amount of topUpAmounts) expect(topupSchema.safeParse({ amount: String(amount) }).success, String(amount)).toBe(true);
    expect(defaultTopUpAmount).toBe(10);
  });

  it('tells an option from anything else', () => {
    expect(isTopUpAmount(70)).toBe(true);
    expect(isTopUpAmount(1000)).toBe(true);
    expect(isTopUpAmount(1010)).toBe(false);
    expect(isTopUpAmount(15)).toBe(false);
    for (const other of [0, 15, 2500, '20', null, undefined]) expect(isTopUpAmount(other), String(other)).toBe(false);
  });
});

describe('topUpRequest', () => {
  it('posts the amount as a decimal string with the Idempotency-Key header', () => {
    const request = topUpRequest('acc-1', 20, 'key-1');
    expect(request).toEqual({
      path: '/v1/accounts/acc-1/topup',
      body: { amount: '20' },
      headers: { 'Idempotency-Key': 'key-1' },
    });
    expect(topupSchema.parse(request.body)).toEqual({ amount: '20' });
  });
});

describe('toppedUpMessage', () => {
  it('says the new balance as the Plan tab shows it', () => {
    expect(toppedUpMessage('35.5')).toBe('Balance topped up to $35.5000');
    expect(toppedUpMessage('20.0000')).toBe('Balance topped up to $20.0000');
  });
});

describe('newIdempotencyKey', () => {
  it('uses crypto.randomUUID when it exists', () => {
    expect(newIdempotencyKey({ randomUUID: () => '11111111-2222-4333-8444-555555555555', getRandomValues: (a) => a })).toBe(
      '11111111-2222-4333-8444-555555555555',
    );
  });

  it('builds a UUID v4 from random bytes outside a secure context', () => {
    const zeros = newIdempotencyKey({ getRandomValues: (array) => array });
    expect(zeros).toBe('00000000-0000-4000-8000-000000000000');
    const ones = newIdempotencyKey({
      getRandomValues: <T extends ArrayBufferView | null>(array: T): T => {
        if (array instanceof Uint8Array) array.fill(0xff);
        return array;
      },
    });
    expect(ones).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    const real = new Set(Array.from({ length: 50 }, () => newIdempotencyKey({ getRandomValues: (a) => crypto.getRandomValues(a) })));
    expect(real.size).toBe(50);
    for (const key of real) expect(key).toMatch(uuidV4);
  });
});
