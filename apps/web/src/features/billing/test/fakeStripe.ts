import type { BillingDetails, StripeLike } from '../stripeCardFlow';

/** What a test's card field stands for: Stripe.js's card number Element. */
export interface FakeCardElement {
  readonly element: 'cardNumber';
}

export const fakeCardElement: FakeCardElement = { element: 'cardNumber' };

/** How Stripe.js answers an intent's confirmation: its status, or Stripe's error. */
export type FakeConfirmation = { status: string } | { error: string };

export interface FakeStripeScript {
  /** The card Stripe reads from the Elements, or Stripe's error (an incomplete number, a declined card ...). */
  paymentMethod?: { id: string; card: { last4: string; exp_month: number; exp_year: number } | null } | { error: string };
  confirmation?: FakeConfirmation;
}

export type FakeStripeCall =
  | { method: 'createPaymentMethod'; card: FakeCardElement; billingDetails: BillingDetails }
  | { method: 'confirmCardSetup' | 'confirmCardPayment'; clientSecret: string };

const visa = { id: 'pm_1Fake', card: { last4: '4242', exp_month: 12, exp_year: 2031 } };

/**
 * Stripe.js as the card flow sees it, answering with Stripe's result shapes ({ paymentMethod } or
 * { error }, { setupIntent } / { paymentIntent } with a status); every call is recorded.
 */
export class FakeStripe implements StripeLike<FakeCardElement> {
  readonly calls: FakeStripeCall[] = [];

  constructor(private readonly script: FakeStripeScript = {}) {}

  createPaymentMethod(data: { type: 'card'; card: FakeCardElement; billing_details: BillingDetails }) {
    this.calls.push({ method: 'createPaymentMethod', card: data.card, billingDetails: data.billing_details });
    const answer = this.script.paymentMethod ?? visa;
    return Promise.resolve('error' in answer ? { error: { type: 'card_error', message: answer.error } } : { paymentMethod: answer });
  }

  confirmCardSetup(clientSecret: string) {
    this.calls.push({ method: 'confirmCardSetup', clientSecret });
    const answer = this.script.confirmation ?? { status: 'succeeded' };
    return Promise.resolve('error' in answer ? { error: { message: answer.error } } : { setupIntent: { status: answer.status } });
  }

  confirmCardPayment(clientSecret: string) {
    this.calls.push({ method: 'confirmCardPayment', clientSecret });
    const answer = this.script.confirmation ?? { status: 'succeeded' };
    return Promise.resolve('error' in answer ? { error: { message: answer.error } } : { paymentIntent: { status: answer.status } });
  }
}
