import { z } from 'zod';
import { contactMobileInputSchema, contactSchema } from './contacts.js';

/**
 * The privacy area (/admin/gdpr; docs/decisions.md, Lists, groups and privacy): find a contact by number, download all that
 * is held about them, remove them for good. Administrators only (`gdpr.manage`); every download and
 * removal is written to the audit log.
 */

/** GET /v1/accounts/{acc}/gdpr/search?number=&country=: the number is normalised as contacts are. */
// The same fields and messages as a contact's mobile, so the search reads a number as the contact dialog does.
export const privacySearchQuerySchema = contactMobileInputSchema;

export type PrivacySearchQuery = z.output<typeof privacySearchQuerySchema>;

/** How much a removal would take with it. */
export const privacyHoldingsSchema = z
  .object({ lists: z.number().int(), conversations: z.number().int(), messages: z.number().int() })
  .meta({ id: 'PrivacyHoldings' });

export const privacySearchResultSchema = z
  .object({
    data: z
      .object({
        contact: contactSchema,
        holdings: privacyHoldingsSchema,
      })
      .nullable(),
  })
  .meta({ id: 'PrivacySearchResult' });

export type PrivacySearchResult = z.infer<typeof privacySearchResultSchema>['data'];

/** The privacy deletion result: removed {contacts, conversations, messages}. */
export const privacyRemovedSchema = z
  .object({ contacts: z.number().int(), conversations: z.number().int(), messages: z.number().int() })
  .meta({ id: 'PrivacyRemoved' });

export type PrivacyRemoved = z.infer<typeof privacyRemovedSchema>;

export const privacyRemovalResultSchema = z
  .object({ data: z.object({ removed: privacyRemovedSchema }) })
  .meta({ id: 'PrivacyRemovalResult' });

/**
 * The download (GET .../gdpr/download/{id}) is one CSV file in a long format: one row per value held,
 * `record` naming what it belongs to (contact, attribute, tag, listMembership, conversation, message),
 * `recordId` which one, `field` and `value`.
 */
export const privacyCsvColumns = ['record', 'recordId', 'field', 'value'] as const;

export const PRIVACY_NOT_FOUND_MESSAGE = 'No contact holds this number.';
