import type { Card } from '../provider.js';

/** How a sandbox card behaves; the numbers are Stripe's test cards, so one habit serves both providers. */
export type CardBehaviour = 'succeeds' | 'declinesSetup' | 'declinesCharges' | 'requiresAuthentication';

interface TestCard {
  number: string;
  brand: string;
  behaviour: CardBehaviour;
  /** Stripe's test PaymentMethod id for the same card (pm_card_visa ...), taken as a token too. */
  alias: string;
}

export const sandboxTestCards: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', behaviour: 'succeeds', alias: 'pm_card_visa' },
  { number: '5555555555554444', brand: 'mastercard', behaviour: 'succeeds', alias: 'pm_card_mastercard' },
  { number: '4000000000000002', brand: 'visa', behaviour: 'declinesSetup', alias: 'pm_card_chargeDeclined' },
  { number: '4000000000000341', brand: 'visa', behaviour: 'declinesCharges', alias: 'pm_card_chargeCustomerFail' },
  { number: '4000002760003184', brand: 'visa', behaviour: 'requiresAuthentication', alias: 'pm_card_authenticationRequired' },
];

export const SANDBOX_CARD_REFUSED_MESSAGE = 'The sandbox takes its test cards only, such as 4242 4242 4242 4242 (docs/billing.md).';
export const CARD_DECLINED_MESSAGE = 'Your card was declined.';
export const AUTHENTICATION_REQUIRED_MESSAGE = 'Your card needs authentication for this payment.';

export interface SandboxCard extends Card {
  behaviour: CardBehaviour;
}

/** A test card by number (spaces ignored) or by its Stripe alias; null for anything else. */
export function sandboxCard(numberOrAlias: string, expiry: { month: number; year: number } = { month: 12, year: new Date().getUTCFullYear() + 3 }): SandboxCard | null {
  const compact = numberOrAlias.replace(/[\s-]/g, '');
  const card = sandboxTestCards.find((c) => c.number === compact || c.alias === numberOrAlias);
  if (!card) return null;
  return { brand: card.brand, last4: card.number.slice(-4), expMonth: expiry.month, expYear: expiry.year, behaviour: card.behaviour };
}
