import type { ListMember, ListRecord } from '@parley/shared';
import type { ListWithCount, MemberWithContact } from './queries.js';

export function presentList({ list, memberCount }: ListWithCount): ListRecord {
  return {
    id: list.id,
    name: list.name,
    memberCount,
    created: { at: list.createdAt.toISOString() },
    updated: { at: list.updatedAt.toISOString() },
  };
}

export function presentListMember({ member, contact }: MemberWithContact): ListMember {
  return {
    id: member.id,
    listId: member.listId,
    contactId: member.contactId,
    status: member.status,
    optIn: member.optInAt?.toISOString() ?? null,
    optOut: member.optOutAt?.toISOString() ?? null,
    consentSource: member.consentSource,
    added: { at: member.createdAt.toISOString() },
    contact: {
      id: contact.id,
      firstName: contact.firstName,
      lastName: contact.lastName,
      mobile: { number: contact.mobileNumber, country: contact.mobileCountry },
      email: contact.email,
      valid: contact.valid,
    },
  };
}
