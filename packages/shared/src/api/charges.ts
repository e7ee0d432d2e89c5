import { z } from 'zod';
import { moneySchema } from './money.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/**
 * The account's ledger as the billing screens show it (GET /v1/accounts/{acc}/charges), newest first:
 * credits (trial credit, top-ups), debits (messages, number-type checks) and refunds.
 */
export const chargeSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['credit', 'debit', 'refund']),
    /** Always positive; `kind` says which way it moved the balance. */
    amount: moneySchema,
    balanceAfter: moneySchema,
    description: z.string(),
    created: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Charge' });

export type Charge = z.infer<typeof chargeSchema>;

export const chargeListQuerySchema = listQuerySchema;
export const chargeListSchema = listResponse(chargeSchema).meta({ id: 'ChargeList' });

/** The refusal of a charge the balance cannot cover (spec: the campaign banner and the send dialog say it). */
export const INSUFFICIENT_CREDIT_MESSAGE = 'Insufficient Credit';

/** The sandbox top-up's bounds: whole dollars and cents as a card payment would take, up to 4 decimals. */
export const TOPUP_MIN = 1;
export const TOPUP_MAX = 10_000;
export const TOPUP_AMOUNT_MESSAGE = `Enter an amount from ${TOPUP_MIN} to ${TOPUP_MAX} with at most 4 decimals`;

/** An amount as a number (10, 25.5) or a decimal string ('25.50'); never more than 4 decimals. */
const topupAmount = z
  .union([z.number({ message: TOPUP_AMOUNT_MESSAGE }), z.string({ message: TOPUP_AMOUNT_MESSAGE }).trim()], {
    message: TOPUP_AMOUNT_MESSAGE,
  })
  .transform((value) => (typeof value === 'number' ? String(value) : value))
  .refine(
    (value) => {
      // Compared as whole dollars and a fraction: no binary float decides a bound.
      const match = /^(\d{1,12})(?:\.(\d{1,4}))?$/.exec(value);
      if (!match) return false;
      const whole = Number(match[1]);
      const cents = /[1-9]/.test(match[2] ?? '');
      return whole >= TOPUP_MIN && (whole < TOPUP_MAX || (whole === TOPUP_MAX && !cents));
    },
    { message: TOPUP_AMOUNT_MESSAGE },
  );

/** POST or PUT /v1/accounts/{acc}/topup (spec §7.1). An `Idempotency-Key` header makes a retry credit once. */
export const topupSchema = z.object({ amount: topupAmount }).meta({ id: 'Topup' });

export type TopupInput = z.input<typeof topupSchema>;
export type Topup = z.output<typeof topupSchema>;

export const topupResultSchema = recordResponse(
  z.object({
    /** The balance after the top-up. */
    balance: moneySchema,
    charge: chargeSchema,
    /** True when the Idempotency-Key had been used: nothing was credited this time. */
    duplicate: z.boolean(),
  }),
).meta({ id: 'TopupResult' });

export type TopupResult = z.infer<typeof topupResultSchema>;
