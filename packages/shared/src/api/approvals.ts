import { z } from 'zod';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/** The kinds of approval the product knows (only 'acceptablehours'; any other is Unknown, 404). */
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

/**
 * Whether a one-to-one message to a contact would go now or wait for the contact's acceptable hours
 * (GET /v1/accounts/{acc}/contacts/{id}/acceptablehours): what the send box tells the sender before Send.
 */
export const acceptableHoursStatusSchema = z
  .object({
    /** The account's quiet hours are on: otherwise every message goes at once. */
    applies: z.boolean(),
    /** The contact's IANA zone, from the number. */
    timeZone: z.string(),
    /** The contact's local time now, HH:MM. */
    localTime: z.string(),
    /** Messages may go to the contact now. */
    open: z.boolean(),
    /** The contact wrote within the last 24 hours: an answer goes at once, whatever the hour. */
    recentlyWrote: z.boolean(),
    /** While closed: when the hours open next (ISO 8601), and that time in the contact's zone (HH:MM). */
    opensAt: z.string().nullable(),
    opensAtLocal: z.string().nullable(),
  })
  .meta({ id: 'AcceptableHoursStatus' });

export type AcceptableHoursStatus = z.infer<typeof acceptableHoursStatusSchema>;
export const acceptableHoursStatusRecordSchema = recordResponse(acceptableHoursStatusSchema).meta({ id: 'AcceptableHoursStatusRecord' });

/** A one-to-one send waits for the contact's hours unless it answers them or its sender confirms it. */
export const holdsOneToOne = (status: AcceptableHoursStatus): boolean => status.applies && !status.open && !status.recentlyWrote;
