import { formatMoney, TOPUP_DEFAULT, TOPUP_MAX, TOPUP_MIN, TOPUP_STEP, type Payment, type TopupInput } from '@parley/shared';
import { authenticateWithStripe, type StripeAuthenticator } from './stripeCardFlow';

/** The top-up amounts (USD): 10 to 1,000 in steps of 10. */
export const topUpAmounts: readonly number[] = Array.from(
  { length: (TOPUP_MAX - TOPUP_MIN) / TOPUP_STEP + 1 },
  (_, i) => TOPUP_MIN + i * TOPUP_STEP,
);
export type TopUpAmount = number;

/** The default top-up. */
export const defaultTopUpAmount: TopUpAmount = TOPUP_DEFAULT;

export const isTopUpAmount = (value: unknown): value is TopUpAmount => topUpAmounts.includes(value as number);

export const chargesQueryKey = (accountId: string) => ['accounts', accountId, 'charges'] as const;

export interface TopUpRequest {
  path: string;
  body: TopupInput;
  headers: Record<string, string>;
}

/** POST /v1/accounts/{acc}/topup; the Idempotency-Key makes a repeated Confirm credit once. */
export const topUpRequest = (accountId: string, amount: TopUpAmount, idempotencyKey: string): TopUpRequest => ({
  path: `/v1/accounts/${accountId}/topup`,
  // A decimal string, as money travels everywhere else.
  body: { amount: String(amount) },
  headers: { 'Idempotency-Key': idempotencyKey },
});

export const toppedUpMessage = (balance: string): string => `Balance topped up to $${formatMoney(balance)}`;

const hex = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * A fresh UUID v4. crypto.randomUUID exists only in secure contexts, and a self-hosted server is often
 * opened over plain http on a LAN address; getRandomValues works everywhere.
 */
export const newIdempotencyKey = (source: Pick<Crypto, 'getRandomValues'> & Partial<Pick<Crypto, 'randomUUID'>> = crypto): string => {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export const TOPUP_AUTHENTICATION_REFUSED_MESSAGE = 'The payment was not authenticated, so the balance stays as it was.';
export const TOPUP_FAILED_MESSAGE = 'The payment failed.';

/** Where a top-up stands once asked: on its way, paid already, refused, or waiting for the card holder. */
export type TopUpOutcome = { kind: 'processing' } | { kind: 'succeeded' } | { kind: 'failed'; message: string } | { kind: 'authenticate'; clientSecret: string };

/**
 * The top-up's answer, with the card holder's authentication when the bank asks for it: with Stripe,
 * Stripe.js's (confirmCardPayment, 3-D Secure in Stripe's modal), after which the payment is processing;
 * with the sandbox, its own page, shown by the dialog (`authenticate`). The one branch on the provider.
 */
export async function afterTopUp(
  answer: { payment: Pick<Payment, 'status' | 'error'>; clientSecret: string | null },
  stripe: (() => Promise<StripeAuthenticator>) | null,
): Promise<TopUpOutcome> {
  const { payment, clientSecret } = answer;
  switch (payment.status) {
    case 'failed':
      return { kind: 'failed', message: payment.error ?? TOPUP_FAILED_MESSAGE };
    case 'succeeded':
      return { kind: 'succeeded' };
    case 'processing':
      return { kind: 'processing' };
    case 'requiresAction':
      // A repeated request (same Idempotency-Key) carries no secret: the first one's authentication stands.
      if (clientSecret === null) return { kind: 'processing' };
      if (stripe === null) return { kind: 'authenticate', clientSecret };
      await authenticateWithStripe(await stripe(), 'payment', clientSecret, TOPUP_AUTHENTICATION_REFUSED_MESSAGE);
      return { kind: 'processing' };
  }
}
