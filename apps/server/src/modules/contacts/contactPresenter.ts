import { isVisibleTag, type Contact } from '@parley/shared';
import { withoutNulls } from '../../platform/http/withoutNulls.js';
import type { ContactRecord } from './queries.js';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** The contact entity from its row and list memberships; what it does not have is left out, not null. */
export function presentContact({ contact, lists }: ContactRecord): Contact {
  return withoutNulls({
    id: contact.id,
    firstName: contact.firstName,
    lastName: contact.lastName,
    mobile: { number: contact.mobileNumber, country: contact.mobileCountry },
    email: contact.email,
    tags: contact.tags.map((tag) => ({ tag, visible: isVisibleTag(tag) })),
    attributes: contact.attributes,
    valid: contact.valid,
    blocked: iso(contact.blockedAt),
    optedOut: iso(contact.optedOutAt),
    error: contact.errorDescription === null ? null : { description: contact.errorDescription },
    numberType: contact.numberType,
    created: { at: contact.createdAt.toISOString() },
    updated: { at: contact.updatedAt.toISOString() },
    lists: lists.map((m) => ({
      id: m.id,
      listId: m.listId,
      status: m.status,
      optIn: iso(m.optInAt),
      optOut: iso(m.optOutAt),
    })),
  });
}
