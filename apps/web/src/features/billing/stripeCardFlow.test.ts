import type { PaymentSource } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { CardHolder, ExpectedCard } from './paymentDetails';
import {
  authenticateWithStripe,
  billingDetails,
  CARD_AUTHENTICATION_FAILED_MESSAGE,
  CARD_NOT_MADE_MESSAGE,
  countryCode,
  emptyCardFieldStates,
  incompleteCardFields,
  saveCardWithStripe,
  type CardSetupAnswer,
} from './stripeCardFlow';
import { fakeCardElement, FakeStripe } from './test/fakeStripe';

const holder: CardHolder = { name: 'Ada Lovelace', line1: '12 St James Square', line2: '', city: 'London', postalCode: 'SW1Y 4JH', country: 'United Kingdom' };
const onFile: PaymentSource = { brand: 'visa', last4: '4242', expiry: { month: 12, year: 2031 } };

/** The account's calls, recorded: PUT .../paymentsource answers `answer` (or refuses), GET shows the card. */
function account(answer: CardSetupAnswer | ApiError) {
  const log: string[] = [];
  const expected: ExpectedCard[] = [];
  return {
    log,
    expected,
    calls: {
      saveToken: (tokenId: string) => {
        log.push(`PUT paymentsource ${tokenId}`);
        return answer instanceof ApiError ? Promise.reject(answer) : Promise.resolve(answer);
      },
      waitForCard: (card: ExpectedCard) => {
        log.push('GET paymentsource');
        expected.push(card);
        return Promise.resolve(onFile);
      },
    },
  };
}

const processing: CardSetupAnswer = { status: 'processing', clientSecret: null, error: null };
const asksAuthentication: CardSetupAnswer = { status: 'requiresAction', clientSecret: 'seti_1_secret_x', error: null };

describe('the card holder as Stripe billing details', () => {
  it('sends the name and address, the country as its code, and leaves an empty line 2 out', () => {
    expect(billingDetails(holder)).toEqual({
      name: 'Ada Lovelace',
      address: { line1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
    });
    expect(billingDetails({ ...holder, line2: 'Flat 3', country: 'us' }).address).toMatchObject({ line2: 'Flat 3', country: 'US' });
  });

  it('reads a country typed as a code or an English name, and leaves out one it does not know', () => {
    expect(countryCode(' gb ')).toBe('GB');
    expect(countryCode('united states')).toBe('US');
    expect(countryCode('Germany')).toBe('DE');
    expect(countryCode('UK')).toBe('GB');
    expect(countryCode('qq')).toBeUndefined();
    expect(countryCode('Atlantis')).toBeUndefined();
    expect(billingDetails({ ...holder, country: 'Atlantis' }).address).not.toHaveProperty('country');
  });
});

describe("the card fields Stripe does not hold complete yet", () => {
  it("are listed with the spec's texts, in the order shown", () => {
    expect(Object.values(incompleteCardFields(emptyCardFieldStates))).toEqual([
      'Please enter the card number',
      'Please enter the expiry date as MM/YY',
      'Please enter the 3 or 4 digit security code',
    ]);
    expect(incompleteCardFields({ cardNumber: { complete: true }, expiry: { complete: false }, cvc: { complete: true } })).toEqual({
      expiry: 'Please enter the expiry date as MM/YY',
    });
    expect(incompleteCardFields({ cardNumber: { complete: true }, expiry: { complete: true }, cvc: { complete: true } })).toEqual({});
  });
});

describe('saving a card with Stripe', () => {
  it('makes a PaymentMethod, saves it, and waits until the card Stripe read is on file', async () => {
    const stripe = new FakeStripe();
    const { log, expected, calls } = account(processing);
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, calls)).resolves.toEqual(onFile);
    expect(stripe.calls).toEqual([{ method: 'createPaymentMethod', card: fakeCardElement, billingDetails: billingDetails(holder) }]);
    expect(log).toEqual(['PUT paymentsource pm_1Fake', 'GET paymentsource']);
    expect(expected).toEqual([{ last4: '4242', month: 12, year: 2031 }]);
  });

  it("shows Stripe's own error when it cannot make the PaymentMethod, and saves nothing", async () => {
    const stripe = new FakeStripe({ paymentMethod: { error: 'Your card number is incomplete.' } });
    const { log, calls } = account(processing);
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, calls)).rejects.toThrow(new ApiError('Your card number is incomplete.'));
    expect(log).toEqual([]);
  });

  it("authenticates in Stripe.js's modal when the bank asks, then waits for the card", async () => {
    const stripe = new FakeStripe({ confirmation: { status: 'succeeded' } });
    const { log, calls } = account(asksAuthentication);
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, calls)).resolves.toEqual(onFile);
    expect(stripe.calls.map((call) => call.method)).toEqual(['createPaymentMethod', 'confirmCardSetup']);
    expect(stripe.calls[1]).toEqual({ method: 'confirmCardSetup', clientSecret: 'seti_1_secret_x' });
    expect(log).toEqual(['PUT paymentsource pm_1Fake', 'GET paymentsource']);
  });

  it("stops with Stripe's message when the authentication fails, and does not wait for the card", async () => {
    const stripe = new FakeStripe({ confirmation: { error: 'We are unable to authenticate your payment method.' } });
    const { log, calls } = account(asksAuthentication);
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, calls)).rejects.toThrow(
      new ApiError('We are unable to authenticate your payment method.'),
    );
    expect(log).toEqual(['PUT paymentsource pm_1Fake']);
  });

  it('stops when the authentication leaves the card unsaved without an error of its own', async () => {
    const stripe = new FakeStripe({ confirmation: { status: 'requires_payment_method' } });
    const { calls } = account(asksAuthentication);
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, calls)).rejects.toThrow(new ApiError(CARD_AUTHENTICATION_FAILED_MESSAGE));
  });

  it("shows the server's refusal, and the provider's decline, without asking Stripe to authenticate", async () => {
    const refused = account(new ApiError('Verify your e-mail address first.', 403, 'forbidden'));
    const stripe = new FakeStripe();
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, refused.calls)).rejects.toThrow('Verify your e-mail address first.');
    const declined = account({ status: 'failed', clientSecret: null, error: 'Your card was declined.' });
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, declined.calls)).rejects.toThrow(new ApiError('Your card was declined.'));
    expect(stripe.calls.map((call) => call.method)).toEqual(['createPaymentMethod', 'createPaymentMethod']);
    expect([...refused.log, ...declined.log]).not.toContain('GET paymentsource');
  });

  it('saves nothing when Stripe made a PaymentMethod without a card', async () => {
    const stripe = new FakeStripe({ paymentMethod: { id: 'pm_odd', card: null } });
    const { log, calls } = account(processing);
    await expect(saveCardWithStripe(stripe, fakeCardElement, holder, calls)).rejects.toThrow(new ApiError(CARD_NOT_MADE_MESSAGE));
    expect(log).toEqual([]);
  });
});

describe("authenticating a payment with Stripe.js", () => {
  it('confirms a PaymentIntent with confirmCardPayment and a SetupIntent with confirmCardSetup', async () => {
    const stripe = new FakeStripe({ confirmation: { status: 'processing' } });
    await authenticateWithStripe(stripe, 'payment', 'pi_1_secret_y', 'refused');
    await authenticateWithStripe(stripe, 'setup', 'seti_2_secret_z', 'refused');
    expect(stripe.calls).toEqual([
      { method: 'confirmCardPayment', clientSecret: 'pi_1_secret_y' },
      { method: 'confirmCardSetup', clientSecret: 'seti_2_secret_z' },
    ]);
  });

  it("refuses with Stripe's message, or the caller's when Stripe gives none", async () => {
    await expect(authenticateWithStripe(new FakeStripe({ confirmation: { error: 'Authentication failed.' } }), 'payment', 's', 'refused')).rejects.toThrow(
      new ApiError('Authentication failed.'),
    );
    await expect(authenticateWithStripe(new FakeStripe({ confirmation: { status: 'requires_payment_method' } }), 'payment', 's', 'refused')).rejects.toThrow(
      new ApiError('refused'),
    );
  });
});
