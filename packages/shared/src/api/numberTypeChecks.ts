import { z } from 'zod';
import { CONTACT_REMOVE_MAX } from './contacts.js';
import { validationMessages } from '../validation.js';

/**
 * "Check number types" on selected contacts (docs/decisions.md, "Check number types"): a job that gives each
 * contact's valid number its type, charged NUMBER_TYPE_CHECK_PRICE once per contact, as the account option
 * 'validate phone number type' does on every new number.
 */
export const NUMBER_TYPE_CHECK_MAX = CONTACT_REMOVE_MAX;

/** POST /v1/accounts/{acc}/contacts/numbertypes: every id must be a contact of the account (404 otherwise). */
export const startNumberTypeCheckSchema = z
  .object({
    ids: z
      .array(z.uuid({ message: 'Not a contact id' }))
      .min(1, { message: validationMessages.selectOneOrMore })
      .max(NUMBER_TYPE_CHECK_MAX, { message: `At most ${String(NUMBER_TYPE_CHECK_MAX)} contacts at once` })
      .transform((ids) => [...new Set(ids)]),
  })
  .meta({ id: 'StartNumberTypeCheck' });
export type StartNumberTypeCheck = z.output<typeof startNumberTypeCheckSchema>;

export const numberTypeCheckStatuses = ['queued', 'running', 'completed', 'failed'] as const;

/** A check and how far it has come: each contact ends in exactly one of the four counts. */
export const numberTypeCheckSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(numberTypeCheckStatuses),
    total: z.number().int(),
    /** Contacts looked at so far (the four counts below add up to it). */
    processed: z.number().int(),
    /** Given a type now (and charged, unless this contact was charged for a check before). */
    checked: z.number().int(),
    /** Had a type already: left as they are, no charge. */
    alreadyChecked: z.number().int(),
    /** No valid number to check, or removed since they were selected. */
    skipped: z.number().int(),
    /** Not checked: the balance could not pay (or the trial has ended). */
    notPaid: z.number().int(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'NumberTypeCheck' });
export type NumberTypeCheck = z.infer<typeof numberTypeCheckSchema>;
export const numberTypeCheckResponseSchema = z.object({ data: numberTypeCheckSchema });
