/**
 * What the billing module asks of a payment provider (docs/billing.md). Two adapters answer it: the sandbox
 * (the embedded default, its records in our database) and Stripe. Both confirm what they did later, through
 * events that take one path into the application (applyProviderEvent), so the code that moves balances and
 * plans cannot tell them apart.
 */
export const providerNames = ['sandbox', 'stripe'] as const;
export type ProviderName = (typeof providerNames)[number];

export type PaymentStatus = 'processing' | 'requiresAction' | 'succeeded' | 'failed';

export interface Card {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CustomerInput {
  accountId: string;
  name: string;
}

/** A card to save for later payments: the token the card form gave (a Stripe PaymentMethod id, or a sandbox card token). */
export interface CardSetupInput {
  accountId: string;
  customerId: string;
  tokenId: string;
}

export interface CardSetupResult {
  setupId: string;
  /** succeeded: the card is saved once the provider's event arrives; requiresAction: the card holder must authenticate. */
  status: 'succeeded' | 'requiresAction' | 'failed';
  clientSecret: string | null;
  error: string | null;
}

export interface PaymentInput {
  accountId: string;
  customerId: string;
  paymentMethodId: string;
  /** Our payment's id; the provider carries it back in its events. */
  paymentId: string;
  /** USD, 4 decimals; charged in cents. */
  amount: string;
  description: string;
  /** True when the card holder is not there to authenticate (auto top-up). */
  offSession: boolean;
}

export interface PaymentResult {
  providerPaymentId: string;
  status: PaymentStatus;
  clientSecret: string | null;
  error: string | null;
}

export interface SubscriptionInput {
  accountId: string;
  customerId: string;
  paymentMethodId: string;
  /** The account's current subscription, changed in place (the provider prorates); null: a new one. */
  subscriptionId: string | null;
  plan: { id: string; name: string; price: string };
}

export interface SubscriptionResult {
  subscriptionId: string;
  status: 'active' | 'requiresAction' | 'failed';
  clientSecret: string | null;
  error: string | null;
}

export interface InvoiceLine {
  id: string;
  description: string;
  amount: string;
}

export interface ProviderInvoice {
  providerInvoiceId: string;
  description: string;
  lines: InvoiceLine[];
  total: string;
  status: string;
  error: string | null;
  pdfUrl: string | null;
  receiptUrl: string | null;
  issuedAt: Date;
}

/** What an event changes, in the application's words. */
export type ProviderChange =
  | { kind: 'payment'; providerPaymentId: string; paymentId: string | null; status: PaymentStatus; error: string | null }
  | { kind: 'card'; customerId: string; paymentMethodId: string; card: Card }
  | { kind: 'cardFailed'; customerId: string; error: string }
  | {
      kind: 'subscription';
      customerId: string;
      subscriptionId: string;
      planId: string | null;
      status: string;
      currentPeriodEnd: Date | null;
    }
  | { kind: 'invoice'; customerId: string; invoice: ProviderInvoice };

export interface ProviderEvent {
  provider: ProviderName;
  id: string;
  type: string;
  /** Null: an event type the application does not act on (acknowledged all the same). */
  change: ProviderChange | null;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCustomer(input: CustomerInput, idempotencyKey: string): Promise<string>;
  setupCard(input: CardSetupInput, idempotencyKey: string): Promise<CardSetupResult>;
  createPayment(input: PaymentInput, idempotencyKey: string): Promise<PaymentResult>;
  changeSubscription(input: SubscriptionInput, idempotencyKey: string): Promise<SubscriptionResult>;
}

/** A webhook whose signature, age or body does not hold: answered 400, nothing applied. */
export class WebhookRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRefusedError';
  }
}

/** USD with 4 decimals to whole cents, exactly ('10.0000' -> 1000); amounts here are whole cents already. */
export function toCents(amount: string): number {
  const match = /^(\d+)(?:\.(\d{1,4}))?$/.exec(amount);
  if (!match) throw new Error(`not an amount: ${amount}`);
  const fraction = (match[2] ?? '').padEnd(4, '0');
  if (!fraction.endsWith('00')) throw new Error(`not whole cents: ${amount}`);
  return Number(match[1]) * 100 + Number(fraction.slice(0, 2));
}

/** Whole cents to USD with 4 decimals (1000 -> '10.0000'). */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${String(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, '0')}00`;
}
