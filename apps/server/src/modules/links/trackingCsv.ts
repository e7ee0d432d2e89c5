import { and, asc, eq } from 'drizzle-orm';
import { trackingCsvColumns } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { contacts, linkRecipients, messages } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import { csvLine } from '../contacts/index.js';
import { findLink, LINK_NOT_FOUND } from './linkManager.js';

/**
 * A tracked link's clicks by recipient as CSV (contact, number, message, first click, clicks): one row per
 * message that carried the recipient's own code, oldest first; a person's clicks only (preview fetchers'
 * are left out). Another account's or an unknown link is not found.
 */
export async function trackingCsv(q: Queryable, accountId: string, linkId: string): Promise<string> {
  const link = await findLink(q, accountId, linkId);
  if (!link) throw notFound(LINK_NOT_FOUND);
  const rows = await q
    .select({
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      mobile: contacts.mobileNumber,
      message: messages.body,
      firstClickAt: linkRecipients.firstClickAt,
      clicks: linkRecipients.clicks,
    })
    .from(linkRecipients)
    .innerJoin(contacts, eq(contacts.id, linkRecipients.contactId))
    .innerJoin(messages, eq(messages.id, linkRecipients.messageId))
    .where(and(eq(linkRecipients.accountId, accountId), eq(linkRecipients.linkId, link.id)))
    .orderBy(asc(linkRecipients.createdAt), asc(linkRecipients.id));
  let csv = csvLine(trackingCsvColumns);
  for (const row of rows) {
    const name = `${row.firstName} ${row.lastName}`.trim();
    csv += csvLine([name, row.mobile, row.message, row.firstClickAt?.toISOString() ?? '', String(row.clicks)]);
  }
  return csv;
}
