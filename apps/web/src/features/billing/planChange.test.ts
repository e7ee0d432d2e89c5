import type { CatalogPlan } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { authenticatePlanChange, PLAN_AUTHENTICATION_REFUSED_MESSAGE, PLAN_FOLLOW_FOR_MS, stepAfterChange } from './planChange';
import { STRIPE_UNAVAILABLE_MESSAGE } from './stripeCardFlow';
import { FakeStripe } from './test/fakeStripe';

const starter = { id: 'starter', name: 'Starter', price: '29.0000' } as CatalogPlan;

describe('the step after a plan change is asked', () => {
  it('awaits the provider when the change is processing', () => {
    expect(stepAfterChange(starter, { status: 'processing', action: null, error: null, message: 'Your request is being processed.' }, 1_000)).toEqual({
      kind: 'processing',
      plan: starter,
      until: 1_000 + PLAN_FOLLOW_FOR_MS,
    });
  });

  it('asks the card holder to authenticate when the provider wants it', () => {
    expect(
      stepAfterChange(starter, { status: 'requiresAction', action: { client_secret: 'sub_1_secret_x' }, error: null, message: '' }, 0),
    ).toEqual({ kind: 'authenticate', plan: starter, clientSecret: 'sub_1_secret_x' });
  });

  it("fails with the provider's reason", () => {
    expect(() => stepAfterChange(starter, { status: 'failed', action: null, error: 'Your card was declined.', message: '' }, 0)).toThrow(
      new ApiError('Your card was declined.'),
    );
  });
});

describe("the card holder's authentication of a plan change", () => {
  const asks = { kind: 'authenticate', plan: starter, clientSecret: 'pi_3_secret_q' } as const;

  it("leaves the sandbox's step to its page", async () => {
    await expect(authenticatePlanChange(asks, null, () => 0)).resolves.toEqual(asks);
  });

  it('with Stripe, confirms the invoice payment in Stripe.js, then follows the change', async () => {
    const stripe = new FakeStripe({ confirmation: { status: 'succeeded' } });
    await expect(authenticatePlanChange(asks, () => Promise.resolve(stripe), () => 5_000)).resolves.toEqual({
      kind: 'processing',
      plan: starter,
      until: 5_000 + PLAN_FOLLOW_FOR_MS,
    });
    expect(stripe.calls).toEqual([{ method: 'confirmCardPayment', clientSecret: 'pi_3_secret_q' }]);
  });

  it('with Stripe, a failed authentication leaves the plan as it was', async () => {
    const stripe = new FakeStripe({ confirmation: { status: 'requires_payment_method' } });
    await expect(authenticatePlanChange(asks, () => Promise.resolve(stripe), () => 0)).rejects.toThrow(new ApiError(PLAN_AUTHENTICATION_REFUSED_MESSAGE));
  });

  it('does not load Stripe.js for a change that needs no authentication', async () => {
    const step = { kind: 'processing', plan: starter, until: 1 } as const;
    await expect(authenticatePlanChange(step, () => Promise.reject(new Error('not loaded')), () => 0)).resolves.toEqual(step);
  });

  it("answers Stripe.js's failure to load", async () => {
    await expect(authenticatePlanChange(asks, () => Promise.reject(new ApiError(STRIPE_UNAVAILABLE_MESSAGE)), () => 0)).rejects.toThrow(STRIPE_UNAVAILABLE_MESSAGE);
  });
});
