import type { Contact } from '@parley/shared';

/** How a contact is named in messages: the name, else the number. */
export const contactName = (contact: Pick<Contact, 'firstName' | 'lastName' | 'mobile'>): string =>
  `${contact.firstName} ${contact.lastName}`.trim() || contact.mobile.number;
