import { formatMoney, TOPUP_DEFAULT, TOPUP_MAX, TOPUP_MIN, TOPUP_STEP, type TopupInput } from '@parley/shared';

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
