import type { PaymentSource } from '@parley/shared';
import { ApiError } from '../../api/client';
import { paymentDetailsMessages, type CardHolder, type ExpectedCard } from './paymentDetails';

/*
 * What the card form and the card holder's authentication do with Stripe.js (docs/billing.md, "Web pages"),
 * as decisions over a Stripe-like object, so each branch is tested without a browser. The pages hand in
 * Stripe.js itself; its methods are a superset of these.
 */

export const CARD_NOT_MADE_MESSAGE = 'Stripe could not read the card. Please check its number, expiry date and security code.';
export const CARD_SETUP_FAILED_MESSAGE = 'The card could not be set up.';
export const CARD_AUTHENTICATION_FAILED_MESSAGE = 'The card was not authenticated, so it was not saved.';
export const STRIPE_UNAVAILABLE_MESSAGE =
  "The card form could not be loaded: Stripe's script (js.stripe.com) did not load. Check the connection, or whether something blocks it, and try again.";

interface StripeErrorLike {
  message?: string;
}

interface IntentResult {
  status: string;
}

/** The parts of Stripe.js the card form and authentication use; `Card` is the card number Element. */
export interface StripeLike<Card> {
  createPaymentMethod(data: { type: 'card'; card: Card; billing_details: BillingDetails }): Promise<{
    paymentMethod?: { id: string; card?: { last4: string; exp_month: number; exp_year: number } | null } | undefined;
    error?: StripeErrorLike | undefined;
  }>;
  confirmCardSetup(clientSecret: string): Promise<{ setupIntent?: IntentResult | undefined; error?: StripeErrorLike | undefined }>;
  confirmCardPayment(clientSecret: string): Promise<{ paymentIntent?: IntentResult | undefined; error?: StripeErrorLike | undefined }>;
}

/** Stripe.js's part in authentication alone: no card is entered there. */
export type StripeAuthenticator = Pick<StripeLike<never>, 'confirmCardSetup' | 'confirmCardPayment'>;

export interface BillingDetails {
  name: string;
  address: { line1: string; line2?: string; city: string; postal_code: string; country?: string };
}

/** PUT .../paymentsource's answer (PaymentSourceSetup). */
export interface CardSetupAnswer {
  status: 'processing' | 'requiresAction' | 'failed';
  clientSecret: string | null;
  error: string | null;
}

/** The account's side of saving a card: PUT .../paymentsource, then GET .../paymentsource until it shows. */
export interface CardSaveCalls {
  saveToken(tokenId: string): Promise<CardSetupAnswer>;
  waitForCard(expected: ExpectedCard): Promise<PaymentSource>;
}

const regionNames = (): Intl.DisplayNames => new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** A region code as it stands today ('UK' is 'GB', 'DD' is 'DE'), or undefined when it names no region. */
const currentRegion = (code: string, names: Intl.DisplayNames): string | undefined => {
  const region = (Intl.getCanonicalLocales(`und-${code.toUpperCase()}`)[0] ?? '').slice('und-'.length);
  return /^[A-Z]{2}$/.test(region) && names.of(region) !== undefined ? region : undefined;
};

const REGION_CODES = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));

/**
 * Stripe takes a country as its two-letter code. The form asks for the country as a person writes it:
 * a code ('gb', 'uk') or its English name ('United Kingdom') becomes the code; anything else is left out
 * rather than refused by Stripe (the card's bank checks the address, not its country's spelling).
 */
export const countryCode = (text: string): string | undefined => {
  const typed = text.trim();
  const names = regionNames();
  if (/^[A-Za-z]{2}$/.test(typed)) return currentRegion(typed, names);
  const wanted = typed.toLowerCase();
  return REGION_CODES.find((code) => currentRegion(code, names) === code && names.of(code)?.toLowerCase() === wanted);
};

/** The card holder as the PaymentMethod's billing details (the name and address the form checked). */
export const billingDetails = (holder: CardHolder): BillingDetails => {
  const country = countryCode(holder.country);
  return {
    name: holder.name,
    address: {
      line1: holder.line1,
      ...(holder.line2 === '' ? {} : { line2: holder.line2 }),
      city: holder.city,
      postal_code: holder.postalCode,
      ...(country === undefined ? {} : { country }),
    },
  };
};

/** What Stripe's card fields report (their change events); only `complete` counts. */
export interface CardFieldStates {
  cardNumber: { complete: boolean };
  expiry: { complete: boolean };
  cvc: { complete: boolean };
}

export const emptyCardFieldStates: CardFieldStates = { cardNumber: { complete: false }, expiry: { complete: false }, cvc: { complete: false } };

/** The spec's text for each card field Stripe does not yet hold complete, in the order they are shown. */
export const incompleteCardFields = (states: CardFieldStates): Partial<Record<keyof CardFieldStates, string>> =>
  Object.fromEntries((['cardNumber', 'expiry', 'cvc'] as const).filter((field) => !states[field].complete).map((field) => [field, paymentDetailsMessages[field]]));

const failure = (error: StripeErrorLike | undefined, fallback: string): ApiError => new ApiError(error?.message ?? fallback);

async function confirmIntent(stripe: StripeAuthenticator, intent: 'setup' | 'payment', clientSecret: string): Promise<{ status: string | undefined; error: StripeErrorLike | undefined }> {
  if (intent === 'setup') {
    const result = await stripe.confirmCardSetup(clientSecret);
    return { status: result.setupIntent?.status, error: result.error };
  }
  const result = await stripe.confirmCardPayment(clientSecret);
  return { status: result.paymentIntent?.status, error: result.error };
}

/**
 * Stripe.js's authentication (3-D Secure in Stripe's own modal) of what waits on a client secret: a
 * SetupIntent (a card saved) with confirmCardSetup, a PaymentIntent the server confirmed (a top-up, a plan's
 * invoice) with confirmCardPayment, as Stripe documents for intents confirmed automatically.
 */
export async function authenticateWithStripe(
  stripe: StripeAuthenticator,
  intent: 'setup' | 'payment',
  clientSecret: string,
  refusedMessage: string,
): Promise<void> {
  const { status, error } = await confirmIntent(stripe, intent, clientSecret);
  if (error !== undefined) throw failure(error, refusedMessage);
  // Succeeded, or processing (the provider's event follows); anything else left the payment or card undone.
  if (status === undefined || !['succeeded', 'processing', 'requires_capture'].includes(status)) throw new ApiError(refusedMessage);
}

/**
 * Saves a card with Stripe: Stripe.js makes a PaymentMethod of the Elements and the holder's details, the
 * account saves it (PUT .../paymentsource), Stripe.js authenticates it when the bank asks, and the card is
 * on file once the provider's event is applied (GET .../paymentsource shows it).
 */
export async function saveCardWithStripe<Card>(stripe: StripeLike<Card>, card: Card, holder: CardHolder, calls: CardSaveCalls): Promise<PaymentSource> {
  const made = await stripe.createPaymentMethod({ type: 'card', card, billing_details: billingDetails(holder) });
  const method = made.paymentMethod;
  if (made.error !== undefined || method === undefined) throw failure(made.error, CARD_NOT_MADE_MESSAGE);
  const read = method.card;
  if (read === undefined || read === null) throw new ApiError(CARD_NOT_MADE_MESSAGE);
  const answer = await calls.saveToken(method.id);
  if (answer.status === 'failed') throw new ApiError(answer.error ?? CARD_SETUP_FAILED_MESSAGE);
  if (answer.status === 'requiresAction' && answer.clientSecret !== null) {
    await authenticateWithStripe(stripe, 'setup', answer.clientSecret, CARD_AUTHENTICATION_FAILED_MESSAGE);
  }
  return calls.waitForCard({ last4: read.last4, month: read.exp_month, year: read.exp_year });
}
