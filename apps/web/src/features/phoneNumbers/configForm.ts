import type { PhoneNumber, UpdatePhoneNumberInput } from '@parley/shared';

/** The configuration form as it opens: what the number has now; no forwarding is an empty field. */
export const configFormValues = (number: PhoneNumber): UpdatePhoneNumberInput => ({
  name: number.name,
  forwardTo: number.forwardTo ?? '',
  universalReply: number.universalReply,
});
