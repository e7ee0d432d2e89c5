import { topupSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { FakeStripe } from './test/fakeStripe';
import {
  afterTopUp,
  defaultTopUpAmount,
  isTopUpAmount,
  newIdempotencyKey,
  toppedUpMessage,
  topUpAmounts,
  topUpRequest,
  TOPUP_AUTHENTICATION_REFUSED_MESSAGE,
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

describe('after a top-up is asked', () => {
  const answer = (status: 'processing' | 'requiresAction' | 'succeeded' | 'failed', clientSecret: string | null = null, error: string | null = null) => ({
    payment: { status, error },
    clientSecret,
  });
  const unused = () => Promise.reject(new Error('Stripe.js is not loaded for this'));

  it('is processing, paid already, or refused with the reason', async () => {
    await expect(afterTopUp(answer('processing'), unused)).resolves.toEqual({ kind: 'processing' });
    await expect(afterTopUp(answer('succeeded'), unused)).resolves.toEqual({ kind: 'succeeded' });
    await expect(afterTopUp(answer('failed', null, 'Your card was declined.'), unused)).resolves.toEqual({ kind: 'failed', message: 'Your card was declined.' });
  });

  it("shows the sandbox's authentication page when the bank asks", async () => {
    await expect(afterTopUp(answer('requiresAction', 'pi_9_secret_s'), null)).resolves.toEqual({ kind: 'authenticate', clientSecret: 'pi_9_secret_s' });
  });

  it('with Stripe, authenticates in Stripe.js, then the payment is processing', async () => {
    const stripe = new FakeStripe({ confirmation: { status: 'processing' } });
    await expect(afterTopUp(answer('requiresAction', 'pi_9_secret_s'), () => Promise.resolve(stripe))).resolves.toEqual({ kind: 'processing' });
    expect(stripe.calls).toEqual([{ method: 'confirmCardPayment', clientSecret: 'pi_9_secret_s' }]);
  });

  it("with Stripe, a failed authentication answers Stripe's message", async () => {
    const failed = new FakeStripe({ confirmation: { error: 'Your card was declined.' } });
    await expect(afterTopUp(answer('requiresAction', 'pi_9_secret_s'), () => Promise.resolve(failed))).rejects.toThrow(new ApiError('Your card was declined.'));
    const undone = new FakeStripe({ confirmation: { status: 'requires_payment_method' } });
    await expect(afterTopUp(answer('requiresAction', 'pi_9_secret_s'), () => Promise.resolve(undone))).rejects.toThrow(
      new ApiError(TOPUP_AUTHENTICATION_REFUSED_MESSAGE),
    );
  });

  it('a repeated request carries no secret: it follows the first one', async () => {
    await expect(afterTopUp(answer('requiresAction'), unused)).resolves.toEqual({ kind: 'processing' });
  });
});
