import { z } from 'zod';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/** The kinds of approval the product knows (spec: only 'acceptablehours'; any other is Unknown, 404). */
export const approvalTypes = ['acceptablehours'] as const;
export type ApprovalType = (typeof approvalTypes)[number];

export const isApprovalType = (value: string): value is ApprovalType => (approvalTypes as readonly string[]).includes(value);

/** Most message ids one approval may name; without ids every held message is approved. */
export const MAX_APPROVAL_IDS = 1000;

/**
 * A message waiting for its recipient's acceptable hours (quiet hours): to whom, what, and when it will go
 * unless an administrator approves sending it now.
 */
export const heldMessageSchema = z
  .object({
    id: z.uuid(),
    message: z.string(),
    contact: z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string(), mobile: z.string() }),
    phoneNumber: z.object({ id: z.uuid(), number: z.string() }).nullable(),
    /** The recipient's IANA zone the hours are counted in. */
    timeZone: z.string(),
    /** When it will go on its own: the next opening of the acceptable hours. */
    sendAfter: z.string(),
    created: z.object({ at: z.string() }),
  })
  .meta({ id: 'HeldMessage' });

export type HeldMessage = z.infer<typeof heldMessageSchema>;

export const heldMessageListQuerySchema = listQuerySchema;
export const heldMessageListSchema = listResponse(heldMessageSchema).meta({ id: 'HeldMessageList' });

/** POST /v1/accounts/{acc}/approvals/acceptablehours: the messages to send now; none named = all held. */
export const approveHeldMessagesSchema = z
  .object({
    messageIds: z
      .array(z.uuid({ message: 'Must be a message id' }))
      .min(1, { message: 'Name at least one message, or leave messageIds out to approve all' })
      .max(MAX_APPROVAL_IDS, { message: `At most ${MAX_APPROVAL_IDS} messages at once` })
      .optional(),
  })
  .meta({ id: 'ApproveHeldMessages' });

export type ApproveHeldMessages = z.output<typeof approveHeldMessagesSchema>;

export const approvalResultSchema = recordResponse(
  z.object({
    /** Messages approved now; ids that are not held messages of the account are left out. */
    approved: z.number().int(),
  }),
).meta({ id: 'ApprovalResult' });

export type ApprovalResult = z.infer<typeof approvalResultSchema>['data'];
