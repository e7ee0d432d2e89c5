import { getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { createdListResponse, CURSOR_WITH_OFFSET_MESSAGE, cursorQuery, recordResponse, listResponse } from './pagination.js';

/**
 * Contacts (docs/decisions.md, Contacts). The server, the contact dialog and the CSV importer
 * share these schemas and helpers, so a contact is checked the same way wherever it comes from.
 */

// ---------------------------------------------------------------------------------------------------
// Messages

export const CONTACT_DUPLICATE_MOBILE_MESSAGE = 'A contact with this mobile number already exists';
export const INVALID_CONTACT_MESSAGE = 'Invalid Contact';
export const INVALID_CONTACT_DETAIL_MESSAGE = 'This contact has invalid data.';
export const NO_CONTACTS_MESSAGE = 'No Contacts Exist';
export const ATTRIBUTE_NAME_MESSAGE = 'Use letters, digits and underscores, starting with a letter';
export const ATTRIBUTE_NAME_RESERVED_MESSAGE = 'This name is a contact field, not a custom attribute';
export const TAG_MESSAGE = 'A tag has at most 50 characters and no commas';

// ---------------------------------------------------------------------------------------------------
// Limits

export const CONTACT_NAME_MAX = 100;
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_TAG_MAX = 50;
export const CONTACT_TAGS_MAX = 100;
export const CONTACT_ATTRIBUTE_NAME_MAX = 64;
export const CONTACT_ATTRIBUTE_VALUE_MAX = 1000;
export const CONTACT_ATTRIBUTES_MAX = 100;
/** The table pages by 10, 25 or 50; API callers may ask for up to 500 rows. */
export const CONTACT_PAGE_SIZES = [10, 25, 50] as const;
export const CONTACT_LIST_MAX_LIMIT = 500;
/** Tag suggestions are limited to 10. */
export const TAG_SUGGESTIONS_LIMIT = 10;
/** One multi-delete removes at most this many contacts. */
export const CONTACT_REMOVE_MAX = 500;

// ---------------------------------------------------------------------------------------------------
// Tags and attributes

/**
 * A tag whose name begins with an underscore is a system tag (set by integrations or imports for their own
 * bookkeeping): it is kept and filterable, but `visible` is false and the table does not show it as a chip.
 */
export const isVisibleTag = (tag: string): boolean => !tag.startsWith('_');

/** A tag as stored: trimmed, 1-50 characters, no commas (commas separate tags in filters and CSV files). */
export const contactTagSchema = z
  .string()
  .trim()
  .min(1, { message: validationMessages.required })
  .max(CONTACT_TAG_MAX, { message: TAG_MESSAGE })
  .refine((t) => !t.includes(','), { message: TAG_MESSAGE });

/** Tags of a contact: duplicates (ignoring case) are dropped, the first spelling wins, order is kept. */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const tag of tags) {
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

export const contactTagsInputSchema = z
  .array(contactTagSchema)
  .max(CONTACT_TAGS_MAX, { message: `At most ${CONTACT_TAGS_MAX} tags` })
  .transform(uniqueTags);

/**
 * Names a custom attribute may not take: the contact's own fields (and the CSV import's `country` and
 * `tags` columns), so a template token such as {{{firstName}}} always means the contact field.
 */
export const reservedAttributeNames = [
  'id',
  'firstName',
  'lastName',
  'mobile',
  'email',
  'country',
  'tags',
  'valid',
  'blocked',
  'optedOut',
  'created',
  'updated',
  'lists',
] as const;

const reservedLower = new Set<string>(reservedAttributeNames.map((n) => n.toLowerCase()));

/** Attribute names are template tokens ({{{name}}}): a letter, then letters, digits or underscores. */
export const attributeNamePattern = /^[A-Za-z][A-Za-z0-9_]*$/;

export const isValidAttributeName = (name: string): boolean =>
  name.length <= CONTACT_ATTRIBUTE_NAME_MAX && attributeNamePattern.test(name) && !reservedLower.has(name.toLowerCase());

export const attributeNameSchema = z
  .string()
  .trim()
  .min(1, { message: validationMessages.required })
  .max(CONTACT_ATTRIBUTE_NAME_MAX, { message: `At most ${CONTACT_ATTRIBUTE_NAME_MAX} characters` })
  .regex(attributeNamePattern, { message: ATTRIBUTE_NAME_MESSAGE })
  .refine((n) => !reservedLower.has(n.toLowerCase()), { message: ATTRIBUTE_NAME_RESERVED_MESSAGE });

/**
 * A contact's custom attributes as sent: name → value. When sent, the map replaces the contact's attributes;
 * an empty value removes that attribute (values are trimmed).
 */
export const contactAttributesInputSchema = z
  .record(
    z.string(),
    z.string().trim().max(CONTACT_ATTRIBUTE_VALUE_MAX, { message: `At most ${CONTACT_ATTRIBUTE_VALUE_MAX} characters` }),
  )
  .superRefine((m, ctx) => {
    // Checked here rather than as the record's key schema, whose failure would hide the message.
    for (const name of Object.keys(m)) {
      const checked = attributeNameSchema.safeParse(name);
      if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? ATTRIBUTE_NAME_MESSAGE, path: [name] });
    }
    if (Object.keys(m).length > CONTACT_ATTRIBUTES_MAX) {
      ctx.addIssue({ code: 'custom', message: `At most ${CONTACT_ATTRIBUTES_MAX} attributes` });
    }
  })
  .transform((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== '')));

// ---------------------------------------------------------------------------------------------------
// The contact record

export const listMembershipStatuses = ['subscribed', 'optedIn', 'optedOut'] as const;
export type ListMembershipStatus = (typeof listMembershipStatuses)[number];

export const contactListMembershipSchema = z
  .object({
    /** The membership's id. */
    id: z.uuid(),
    listId: z.uuid(),
    status: z.enum(listMembershipStatuses),
    /** ISO date-times of consent on this list; absent when there was none. */
    optIn: z.string().optional(),
    optOut: z.string().optional(),
  })
  .meta({ id: 'ContactListMembership' });

/**
 * A contact as the API answers it. A value the contact does not have (no e-mail, never blocked, no error) is
 * left out rather than written null, as the hosted product's API does (docs/decisions.md, "Absent values").
 */
export const contactSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    /** E.164 and its country when valid; the number as given when not (then `valid` is false). */
    mobile: z.object({ number: z.string(), country: z.string() }),
    email: z.string().optional(),
    tags: z.array(z.object({ tag: z.string(), visible: z.boolean() })),
    attributes: z.record(z.string(), z.string()),
    valid: z.boolean(),
    /** ISO date-time the contact was blocked; absent when it is not. */
    blocked: z.string().optional(),
    /** ISO date-time the contact opted out of everything the account sends (STOP); absent when it has not. */
    optedOut: z.string().optional(),
    /** Why the number is not valid; absent when it is. */
    error: z.object({ description: z.string() }).optional(),
    /** From the optional number-type check (MOBILE, FIXED_LINE, VOIP ...): absent when not checked. */
    numberType: z.string().optional(),
    created: z.object({ at: z.string() }),
    updated: z.object({ at: z.string() }),
    lists: z.array(contactListMembershipSchema),
  })
  .meta({ id: 'Contact' });

export type Contact = z.infer<typeof contactSchema>;

export const contactRecordSchema = recordResponse(contactSchema);
export const contactListSchema = listResponse(contactSchema);
/** POST .../contacts answers the contact made in a list, as the hosted product's API does. */
export const contactCreatedSchema = createdListResponse(contactSchema).meta({ id: 'ContactCreated' });

// ---------------------------------------------------------------------------------------------------
// Create and update

/** The number as typed and, optionally, its country; the server normalises it (normaliseContactMobile). */
export const contactMobileInputSchema = z.object(
  {
    number: z
      .string({ message: validationMessages.phoneNumberMissing })
      .trim()
      .min(1, { message: validationMessages.phoneNumberMissing })
      .max(40, { message: 'At most 40 characters' }),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .max(2, { message: validationMessages.phoneCountryInvalid })
      .optional()
      .transform((c) => (c === '' ? undefined : c)),
  },
  { message: validationMessages.phoneNumberMissing },
);

const nameField = z
  .string()
  .trim()
  .max(CONTACT_NAME_MAX, { message: `At most ${CONTACT_NAME_MAX} characters` });

/** The e-mail as typed in a form: '' means none; anything else must be an address ('Invalid email address'). */
export const contactEmailTextSchema = z
  .string()
  .trim()
  .pipe(
    z.union([
      z.literal(''),
      z.email({ message: validationMessages.email }).max(CONTACT_EMAIL_MAX, { message: validationMessages.email }),
    ]),
  )
  .transform((v) => (v === '' ? null : v.toLowerCase()));

/** The e-mail in the API: '' or null clears it. */
export const contactEmailSchema = z
  .union([z.null(), z.string()])
  .transform((v) => v ?? '')
  .pipe(contactEmailTextSchema);

/**
 * POST /v1/accounts/{acc}/contacts. Only the mobile is required. A number that is not valid for its country
 * is still saved, with `valid: false` and `error.description` saying why; the same number twice in one
 * account is refused (409, CONTACT_DUPLICATE_MOBILE_MESSAGE).
 */
export const createContactSchema = z
  .object({
    firstName: nameField.default(''),
    lastName: nameField.default(''),
    mobile: contactMobileInputSchema,
    email: contactEmailSchema.optional(),
    tags: contactTagsInputSchema.default([]),
    attributes: contactAttributesInputSchema.default({}),
  })
  .meta({ id: 'CreateContact' });

export type CreateContactInput = z.input<typeof createContactSchema>;

/**
 * A contact named by its mobile where a send takes recipients: the account's contact with that number (once
 * normalised), or a new one with these names. Fields as on creation.
 */
export const contactByMobileSchema = z
  .object({
    mobile: contactMobileInputSchema,
    firstName: nameField.default(''),
    lastName: nameField.default(''),
    email: contactEmailSchema.optional(),
  })
  .meta({ id: 'ContactByMobile' });

export type ContactByMobile = z.output<typeof contactByMobileSchema>;
export type CreateContact = z.output<typeof createContactSchema>;

/** PUT /v1/accounts/{acc}/contacts/{id}: each field sent replaces the stored one (tags and attributes whole). */
export const updateContactSchema = z
  .object({
    firstName: nameField.optional(),
    lastName: nameField.optional(),
    mobile: contactMobileInputSchema.optional(),
    email: contactEmailSchema.optional(),
    tags: contactTagsInputSchema.optional(),
    attributes: contactAttributesInputSchema.optional(),
  })
  .meta({ id: 'UpdateContact' });

export type UpdateContactInput = z.input<typeof updateContactSchema>;
export type UpdateContact = z.output<typeof updateContactSchema>;

/** PUT /v1/accounts/{acc}/contacts/{id}/block. `messageId`: the incoming message the block was made from. */
export const blockContactSchema = z
  .object({ messageId: z.uuid().optional() })
  .meta({ id: 'BlockContact' });

export type BlockContact = z.output<typeof blockContactSchema>;

/** POST /v1/accounts/{acc}/contacts/remove: all or nothing; an id not in the account answers 404. */
export const removeContactsSchema = z
  .object({
    ids: z
      .array(z.uuid({ message: 'Not a contact id' }))
      .min(1, { message: validationMessages.selectOneOrMore })
      .max(CONTACT_REMOVE_MAX, { message: `At most ${CONTACT_REMOVE_MAX} contacts at once` })
      .transform((ids) => [...new Set(ids)]),
  })
  .meta({ id: 'RemoveContacts' });

export type RemoveContacts = z.output<typeof removeContactsSchema>;

export const removeContactsResultSchema = z
  .object({ data: z.object({ removed: z.number().int() }) })
  .meta({ id: 'RemoveContactsResult' });

// ---------------------------------------------------------------------------------------------------
// The table query (also the CSV download's)

export const contactSortColumns = ['firstName', 'lastName', 'mobile', 'email', 'valid', 'blocked', 'created', 'updated'] as const;
export type ContactSortColumn = (typeof contactSortColumns)[number];
export const sortDirections = ['asc', 'desc'] as const;
export type SortDirection = (typeof sortDirections)[number];

export const contactOrderBys = contactSortColumns.flatMap((c) => sortDirections.map((d) => `${c}-${d}` as const));
export type ContactOrderBy = `${ContactSortColumn}-${SortDirection}`;
export const DEFAULT_CONTACT_ORDER_BY: ContactOrderBy = 'created-desc';

export const attributeComparators = ['equals', 'notEquals', 'contains'] as const;
export type AttributeComparator = (typeof attributeComparators)[number];

export interface AttributeFilter {
  attribute: string;
  comparator: AttributeComparator;
  value: string;
}

export const ATTRIBUTE_FILTER_MESSAGE = 'Use attribute|comparator|value, comparator equals, notEquals or contains';

/** `attribute|comparator|value`; the value may itself hold '|'. Null when malformed. */
export function parseAttributeFilter(text: string): AttributeFilter | null {
  const first = text.indexOf('|');
  const second = first < 0 ? -1 : text.indexOf('|', first + 1);
  if (second < 0) return null;
  const attribute = text.slice(0, first).trim();
  const comparator = text.slice(first + 1, second).trim();
  const value = text.slice(second + 1);
  if (attribute === '' || !(attributeComparators as readonly string[]).includes(comparator)) return null;
  return { attribute, comparator: comparator as AttributeComparator, value };
}

export const formatAttributeFilter = (f: AttributeFilter): string => `${f.attribute}|${f.comparator}|${f.value}`;

const booleanFilter = z.enum(['true', 'false'], { message: 'Use true or false' }).transform((v) => v === 'true');

const optionalFilterText = z
  .string()
  .trim()
  .max(200, { message: 'At most 200 characters' })
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** A query value that may come once or repeated (`?tags=a&tags=b`); commas also separate tags. */
const repeated = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));

/**
 * GET /v1/accounts/{acc}/contacts. Empty values are ignored. Text filters (firstName, lastName, mobile,
 * email) match anywhere in the field, ignoring case; `tags` keeps contacts carrying every tag given;
 * `attribute` (repeatable) is `name|comparator|value`; `q` searches names, mobile and e-mail; `listId` keeps
 * the members of one list. `format=csv` (or `Accept: text/csv`) answers the same rows, unpaged, as a CSV file.
 */
export const contactListQuerySchema = z
  .object({
    limit: z.coerce
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(1, { message: 'Minimum value is 1' })
      .max(CONTACT_LIST_MAX_LIMIT, { message: `Maximum value is ${CONTACT_LIST_MAX_LIMIT}` })
      .optional(),
    /** The table's name for limit; limit wins when both are sent. */
    pageSize: z.coerce
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(1, { message: 'Minimum value is 1' })
      .max(CONTACT_LIST_MAX_LIMIT, { message: `Maximum value is ${CONTACT_LIST_MAX_LIMIT}` })
      .optional(),
    offset: z.coerce
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(0, { message: 'Minimum value is 0' })
      .default(0),
    orderBy: z
      .enum(contactOrderBys as [ContactOrderBy, ...ContactOrderBy[]], {
        message: `Use column-direction, for example lastName-asc`,
      })
      .default(DEFAULT_CONTACT_ORDER_BY),
    q: optionalFilterText,
    firstName: optionalFilterText,
    lastName: optionalFilterText,
    mobile: optionalFilterText,
    email: optionalFilterText,
    tags: repeated
      .transform((values) =>
        uniqueTags(
          values
            .flatMap((v) => v.split(','))
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        ),
      )
      .optional(),
    valid: booleanFilter.optional(),
    blocked: booleanFilter.optional(),
    attribute: repeated
      .transform((values, ctx) => {
        const filters: AttributeFilter[] = [];
        for (const v of values) {
          if (v.trim() === '') continue;
          const parsed = parseAttributeFilter(v);
          if (parsed === null) {
            ctx.addIssue({ code: 'custom', message: ATTRIBUTE_FILTER_MESSAGE });
            return z.NEVER;
          }
          filters.push(parsed);
        }
        return filters;
      })
      .optional(),
    listId: z
      .union([z.literal(''), z.uuid({ message: 'Not a list id' })])
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    format: z.enum(['json', 'csv'], { message: 'Use json or csv' }).optional(),
    after: cursorQuery,
  })
  .refine((query) => query.after === undefined || query.offset === 0, { message: CURSOR_WITH_OFFSET_MESSAGE, path: ['after'] })
  // No named component: query parameters are listed inline in the OpenAPI document.
  .transform(({ pageSize, limit, ...rest }) => ({ ...rest, limit: limit ?? pageSize ?? CONTACT_PAGE_SIZES[0] }));

export type ContactListQueryInput = z.input<typeof contactListQuerySchema>;
export type ContactListQuery = z.output<typeof contactListQuerySchema>;

/** The CSV download's columns, in order; custom attributes follow as one column each. */
export const contactCsvColumns = [
  'firstName',
  'lastName',
  'mobile',
  'country',
  'email',
  'tags',
  'valid',
  'error',
  'blocked',
  'optedOut',
  'created',
  'updated',
] as const;

// ---------------------------------------------------------------------------------------------------
// Tags and attribute names of the account

/** GET /v1/accounts/{acc}/tags?prefix=&limit=: the account's tags, the most used first. */
export const tagListQuerySchema = z
  .object({
    prefix: z.string().trim().max(CONTACT_TAG_MAX).optional(),
    limit: z.coerce
      .number({ message: validationMessages.number })
      .int({ message: validationMessages.number })
      .min(1, { message: 'Minimum value is 1' })
      .max(100, { message: 'Maximum value is 100' })
      .default(TAG_SUGGESTIONS_LIMIT),
  });

export const accountTagSchema = z
  .object({ tag: z.string(), visible: z.boolean(), contacts: z.number().int() })
  .meta({ id: 'AccountTag' });

export type AccountTag = z.infer<typeof accountTagSchema>;

export const accountTagListSchema = z.object({ data: z.array(accountTagSchema) }).meta({ id: 'AccountTagList' });

/** GET /v1/accounts/{acc}/attributes: the names of the account's custom contact attributes, sorted. */
export const accountAttributeListSchema = z
  .object({ data: z.array(z.object({ name: z.string() })) })
  .meta({ id: 'AccountAttributeList' });

// ---------------------------------------------------------------------------------------------------
// Number type (the account option 'validate phone number type')

/** Validating a phone number's type costs 1 cent, once per contact. */
export const NUMBER_TYPE_CHECK_PRICE = '0.0100';

/**
 * Where a contact's number type came from: libphonenumber's range data (to be confirmed by the lookup provider
 * where one is configured), the provider, or the simulated network for its own numbers.
 */
export const contactNumberTypeSources = ['range', 'provider', 'simulator'] as const;
export type ContactNumberTypeSource = (typeof contactNumberTypeSources)[number];

/** How long after its range type a contact's number is still sent to the lookup provider to be confirmed. */
export const NUMBER_TYPE_CONFIRM_HOURS = 24;

/** Every country a contact's number may belong to (any country libphonenumber knows), as ISO codes. */
export const contactCountryCodes = (): string[] => [...getCountries()];

/** The type of a valid E.164 number by libphonenumber's metadata (MOBILE, FIXED_LINE, VOIP ...), else UNKNOWN. */
export function numberTypeOf(e164: string): string {
  return parsePhoneNumberFromString(e164)?.getType() ?? 'UNKNOWN';
}

// ---------------------------------------------------------------------------------------------------
// Events (outbox types; notifications and webhooks name them the same)

export const contactEventTypes = ['contactCreated', 'contactUpdated', 'contactRemoved', 'contactOptOut', 'contactOptIn'] as const;
export type ContactEventType = (typeof contactEventTypes)[number];

/** The data of every contact event: the contact as the API shows it (for a removal, as it was). */
export interface ContactEventData {
  contact: Contact;
}
