import { and, asc, inArray, sql } from 'drizzle-orm';
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js/max';
import type { calendar_v3 } from '@googleapis/calendar';
import type { Queryable } from '../../../platform/db/client.js';
import { contacts } from '../../../platform/db/schema/index.js';

/*
 * Who an event's reminder goes to (docs/integrations.md, "Google Calendar"): each attendee (not the calendar's
 * owner, the organizer or a room, not one who declined) whose e-mail is a contact's of the account, and each
 * number written in the event's description or location (read with the account's default country). A
 * contact reached both ways is texted once.
 */

export interface ReminderRecipient {
  /** The reminder's key in the event: the attendee's e-mail (lower case) or the E.164 number. */
  attendee: string;
  attendeeEmail: string | null;
  /** The account's contact, when known; else the number (a contact is added by the send). */
  contactId: string | null;
  mobile: string;
}

const attendeeEmails = (event: calendar_v3.Schema$Event): string[] =>
  (event.attendees ?? [])
    .filter((a) => a.self !== true && a.organizer !== true && a.resource !== true && a.responseStatus !== 'declined' && typeof a.email === 'string')
    .map((a) => (a.email ?? '').trim().toLowerCase())
    .filter((email, i, all) => email !== '' && all.indexOf(email) === i);

/** Numbers written in the text, E.164, valid ones only. */
export function numbersInText(text: string, defaultCountry: string): string[] {
  const found = findPhoneNumbersInText(text, { defaultCountry: defaultCountry as CountryCode });
  return [...new Set(found.filter((f) => f.number.isValid()).map((f) => f.number.number))];
}

export async function recipientsOf(q: Queryable, accountId: string, event: calendar_v3.Schema$Event, defaultCountry: string): Promise<ReminderRecipient[]> {
  const emails = attendeeEmails(event);
  const recipients: ReminderRecipient[] = [];
  if (emails.length > 0) {
    const rows = await q
      .select({ id: contacts.id, email: sql<string>`lower(${contacts.email})`, mobile: contacts.mobileNumber })
      .from(contacts)
      .where(and(sql`${contacts.accountId} = ${accountId}`, inArray(sql`lower(${contacts.email})`, emails), sql`${contacts.valid}`))
      .orderBy(asc(contacts.createdAt), asc(contacts.id));
    for (const email of emails) {
      const contact = rows.find((r) => r.email === email);
      if (contact !== undefined) recipients.push({ attendee: email, attendeeEmail: email, contactId: contact.id, mobile: contact.mobile });
    }
  }
  const text = [event.location ?? '', event.description ?? ''].join('\n');
  for (const mobile of numbersInText(text, defaultCountry)) {
    if (recipients.some((r) => r.mobile === mobile)) continue;
    recipients.push({ attendee: mobile, attendeeEmail: null, contactId: null, mobile });
  }
  return recipients;
}
