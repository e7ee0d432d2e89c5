import { z } from 'zod';
import { requiredText } from '../forms.js';
import { validationMessages } from '../validation.js';
import { contactSchema, listMembershipStatuses } from './contacts.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';

/**
 * Contact lists (docs/decisions.md, Lists, groups and privacy) and their members. A member carries its own consent
 * for the list: `subscribed` (added, no explicit consent recorded), `optedIn` or `optedOut`, with the
 * date of the latest opt-in and of the latest opt-out (docs/decisions.md).
 */

export const LIST_NAME_MAX = 100;
/** One call adds at most this many contacts to a list. */
export const LIST_ADD_CONTACTS_MAX = 1000;

export const LIST_NAME_TAKEN_MESSAGE = 'A list with this name already exists';
export const LIST_SAVE_FAILED_MESSAGE = 'Failed to save list';

export const listRecordSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    /** How many contacts are on the list, whatever their status. */
    memberCount: z.number().int(),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'List' });

export type ListRecord = z.infer<typeof listRecordSchema>;

export const listPageSchema = listResponse(listRecordSchema);
export const listRecordResponseSchema = recordResponse(listRecordSchema);

/** GET /v1/accounts/{acc}/lists: by name; limit and offset as every list call. */
export const listsQuerySchema = listQuerySchema;

/** POST and PUT /v1/accounts/{acc}/lists[/{listId}]: the name is required and unique in the account (ignoring case). */
export const saveListSchema = z.object({ name: requiredText(LIST_NAME_MAX) }).meta({ id: 'SaveList' });

export type SaveListInput = z.input<typeof saveListSchema>;
export type SaveList = z.output<typeof saveListSchema>;

// ---------------------------------------------------------------------------------------------------
// Members

/** The part of a contact the members table shows. */
export const listMemberContactSchema = contactSchema
  .pick({ id: true, firstName: true, lastName: true, mobile: true, valid: true })
  // The members table is Parley's own answer, not the hosted product's: it keeps null for no e-mail.
  .extend({ email: z.string().nullable() })
  .meta({ id: 'ListMemberContact' });

export const listMemberSchema = z
  .object({
    /** The membership's id. */
    id: z.uuid(),
    listId: z.uuid(),
    contactId: z.uuid(),
    status: z.enum(listMembershipStatuses),
    /** ISO date-time of the latest opt-in to this list, or null. */
    optIn: z.iso.datetime().nullable(),
    /** ISO date-time of the latest opt-out from this list, or null. */
    optOut: z.iso.datetime().nullable(),
    /** Where the latest consent came from (manual, import, opt-in page, reply ...), or null. */
    consentSource: z.string().nullable(),
    /** When the contact was added to the list. */
    added: z.object({ at: z.iso.datetime() }),
    contact: listMemberContactSchema,
  })
  .meta({ id: 'ListMember' });

export type ListMember = z.infer<typeof listMemberSchema>;

export const listMemberListSchema = listResponse(listMemberSchema);
export const listMemberResponseSchema = recordResponse(listMemberSchema);

/** GET /v1/accounts/{acc}/lists/{listId}/contacts: the newest members first, optionally of one status. */
export const listMemberQuerySchema = listQuerySchema.extend({
  status: z
    .union([z.literal(''), z.enum(listMembershipStatuses, { message: 'Use subscribed, optedIn or optedOut' })])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

export type ListMemberQuery = z.output<typeof listMemberQuerySchema>;

const consentSourceField = z
  .string()
  .trim()
  .max(200, { message: 'At most 200 characters' })
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * POST /v1/accounts/{acc}/lists/{listId}/contacts: adds contacts of the account. With `optIn` the new
 * members are opted in now; without it they are `subscribed`. Contacts already on the list keep their
 * status (consent changes only through PUT). All or nothing: an id that is not a contact of the account
 * answers 404 and adds no one.
 */
export const addListContactsSchema = z
  .object({
    contactIds: z
      .array(z.uuid({ message: 'Not a contact id' }), { message: validationMessages.selectOneOrMore })
      .min(1, { message: validationMessages.selectOneOrMore })
      .max(LIST_ADD_CONTACTS_MAX, { message: `At most ${LIST_ADD_CONTACTS_MAX} contacts at once` })
      .transform((ids) => [...new Set(ids)]),
    optIn: z.boolean({ message: 'Use true or false' }).default(false),
    consentSource: consentSourceField,
  })
  .meta({ id: 'AddListContacts' });

export type AddListContactsInput = z.input<typeof addListContactsSchema>;
export type AddListContacts = z.output<typeof addListContactsSchema>;

export const addListContactsResultSchema = z
  .object({
    data: z.object({
      /** Contacts put on the list by this call. */
      added: z.number().int(),
      /** Contacts that were on the list already (left as they were). */
      alreadyMembers: z.number().int(),
    }),
  })
  .meta({ id: 'AddListContactsResult' });

export type AddListContactsResult = z.infer<typeof addListContactsResultSchema>['data'];

/** The statuses a member can be moved to: opting in or out records the date. */
export const memberConsentStatuses = ['optedIn', 'optedOut'] as const;
export type MemberConsentStatus = (typeof memberConsentStatuses)[number];

/**
 * PUT /v1/accounts/{acc}/lists/{listId}/contacts/{contactId}: opts the member in or out now. Asking for the
 * status the member already has keeps its date (the first opt-in of a run is the one that counts).
 */
export const updateListMemberSchema = z
  .object({
    status: z.enum(memberConsentStatuses, { message: 'Use optedIn or optedOut' }),
    consentSource: consentSourceField,
  })
  .meta({ id: 'UpdateListMember' });

export type UpdateListMember = z.output<typeof updateListMemberSchema>;


/** listOptIn and listOptOut (docs/notifications.md): a contact's consent to one list changed. */
export interface ListConsentEventData {
  list: { id: string };
  contact: { id: string };
  status: 'optedIn' | 'optedOut';
  /** ISO date-time of the change. */
  at: string;
  consentSource: string | null;
}
export const listConsentEventTypes = { optedIn: 'listOptIn', optedOut: 'listOptOut' } as const;
