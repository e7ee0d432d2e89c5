import { z } from 'zod';

/** The card on file (Plan tab, the account record), or null: the tab says NO_PAYMENT_SETUP. */
export const paymentSourceSchema = z
  .object({
    brand: z.string(),
    last4: z.string(),
    expiry: z.object({ month: z.number().int(), year: z.number().int() }),
  })
  .meta({ id: 'PaymentSource' });

export type PaymentSource = z.infer<typeof paymentSourceSchema>;
