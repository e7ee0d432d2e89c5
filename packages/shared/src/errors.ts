import { z } from 'zod';

/** Codes the API answers with in `{ error: { code, message } }`. */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  /** 402: the account's trial plan has run out; choosing a plan lifts it (docs/billing.md). */
  'trial_expired',
  'rate_limited',
  'not_ready',
  'internal_error',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
    }),
  })
  .meta({ id: 'Error' });

export type ErrorBody = z.infer<typeof errorBodySchema>;
