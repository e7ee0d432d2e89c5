import { z } from 'zod';
import { requiredText } from '../forms.js';
import { validationMessages } from '../validation.js';
import { contactTagsInputSchema } from './contacts.js';
import { listResponse, recordResponse } from './pagination.js';

/**
 * Groups (docs/decisions.md, Lists, groups and privacy): a name, the contact tags they answer for, the phone numbers
 * they hold and the users who see their conversations. Conversations are routed by group with messaging.
 */

export const GROUP_NAME_MAX = 100;
/** Groups are fetched with limit 100, elsewhere 50 or 500. */
export const GROUP_LIST_MAX_LIMIT = 500;
export const GROUP_FETCH_LIMIT = 100;

export const GROUP_NAME_TAKEN_MESSAGE = 'A group with this name already exists';
export const GROUP_USERS_MESSAGE = 'Every user of a group must be a user of this account';
export const GROUP_PHONE_NUMBERS_MESSAGE = 'Every phone number of a group must be a number of this account';
export const GROUP_SAVE_FAILED_MESSAGE = 'Failed to save group';

export const groupUserSchema = z
  .object({ id: z.uuid(), firstName: z.string(), lastName: z.string(), email: z.string() })
  .meta({ id: 'GroupUser' });

export const groupSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    tags: z.array(z.string()),
    /** The group's numbers by id: numbers of the account (a released one stays until the group is saved without it). */
    phoneNumbers: z.array(z.object({ id: z.uuid() })),
    users: z.array(groupUserSchema),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Group' });

export type Group = z.infer<typeof groupSchema>;

export const groupListSchema = listResponse(groupSchema);
export const groupRecordSchema = recordResponse(groupSchema);

const pageNumber = z.coerce.number({ message: validationMessages.number }).int({ message: validationMessages.number });

/** GET /v1/accounts/{acc}/groups: by name; up to 500 a page (callers fetch 50, 100 or 500). */
export const groupListQuerySchema = z.object({
  limit: pageNumber
    .min(1, { message: 'Minimum value is 1' })
    .max(GROUP_LIST_MAX_LIMIT, { message: `Maximum value is ${GROUP_LIST_MAX_LIMIT}` })
    .default(10),
  offset: pageNumber.min(0, { message: 'Minimum value is 0' }).default(0),
});

const idList = (what: string) =>
  z
    .array(z.uuid({ message: `Not a ${what} id` }))
    .max(500, { message: 'At most 500' })
    .transform((ids) => [...new Set(ids)]);

/**
 * POST /v1/accounts/{acc}/groups and PUT .../groups/{id}. The name is required ('Required') and unique in
 * the account, ignoring case. `users` are user ids of the account's members (else 400). On PUT, a list
 * that is not sent stays as it is.
 */
export const saveGroupSchema = z
  .object({
    name: requiredText(GROUP_NAME_MAX),
    tags: contactTagsInputSchema.optional(),
    phoneNumbers: idList('phone number').optional(),
    users: idList('user').optional(),
  })
  .meta({ id: 'SaveGroup' });

export type SaveGroupInput = z.input<typeof saveGroupSchema>;
export type SaveGroup = z.output<typeof saveGroupSchema>;
