import {
  countryCode,
  messageFrequencySchema,
  messageFrequencyUnits,
  validationMessages,
  type Account,
  type MessageFrequency,
} from '@parley/shared';
import { z } from 'zod';

/**
 * The default country and message frequency as typed. An empty quantity clears the frequency; otherwise
 * it must pass the shared frequency rules.
 */
export const defaultsFormSchema = z
  .object({
    country: countryCode,
    quantity: z.string().trim(),
    frequency: z.enum(messageFrequencyUnits, { message: validationMessages.required }),
  })
  .transform((value, ctx): { country: string; messageFrequency: MessageFrequency | null } => {
    if (value.quantity === '') return { country: value.country, messageFrequency: null };
    const parsed = messageFrequencySchema.safeParse({ quantity: Number(value.quantity), frequency: value.frequency });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return { country: value.country, messageFrequency: parsed.data };
  });

export type DefaultsForm = z.input<typeof defaultsFormSchema>;
export type DefaultsUpdate = z.output<typeof defaultsFormSchema>;

export const defaultsFormValues = (account: Account): DefaultsForm => ({
  country: account.defaults.country.code,
  quantity: account.defaults.messageFrequency === null ? '' : String(account.defaults.messageFrequency.quantity),
  frequency: account.defaults.messageFrequency?.frequency ?? 'day',
});
