import { sql } from 'drizzle-orm';
import { contactEvent } from '../contacts/index.js';
import { findContact } from '../contacts/index.js';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { listMembers } from '../../platform/db/schema/index.js';
import { publishEvent, publishEvents } from '../../platform/events/outbox.js';
import { listConsentEventTypes, type ListConsentEventData } from '@parley/shared';
import {
  confirmedOptInSource,
  isPendingOptInSource,
  OPT_IN_REQUEST_EVENT_TYPE,
  PENDING_OPT_IN_SOURCE_PATTERN,
} from './optInConsent.js';
import type { KeywordContext, SupportDetails } from './keywordContext.js';

/** How long an opt-in page's confirmation request can be answered. */
export const OPT_IN_CONFIRMATION_WINDOW_DAYS = 7;

export function optInListConfirmation(support: SupportDetails): string {
  return `${support.name}: Thank you, you are signed up. Reply STOP to unsubscribe, HELP for help.`;
}

/**
 * An opt-in keyword (YES, START ...) from a contact with a pending opt-in page sign-up confirms it, in the
 * inbound transaction: every membership of the contact still awaiting its reply, whose list's confirmation
 * request reached the contact in the last OPT_IN_CONFIRMATION_WINDOW_DAYS, becomes `optedIn` now, its source
 * keeping who asked, from where and when, plus the keyword (modules/messaging/optInConsent.ts). Answers the
 * confirmation to send, or null when nothing was pending (the keyword then does only what it always does).
 */
export async function confirmPendingOptIns(tx: Tx, context: KeywordContext, keyword: string): Promise<string | null> {
  const { accountId, contact, now } = context;
  const pending = await queryRows<{ id: string; list_id: string; consent_source: string | null }>(
    tx,
    sql`select lm.id, lm.list_id, lm.consent_source from list_members lm
         where lm.account_id = ${accountId} and lm.contact_id = ${contact.id} and lm.status <> 'optedIn'
           and lm.consent_source like ${PENDING_OPT_IN_SOURCE_PATTERN}
           and exists (
             select 1 from messages m join templates t on t.id = m.template_id
              where m.account_id = ${accountId} and m.contact_id = ${contact.id} and m.direction = 'outbound'
                and m.event_type = ${OPT_IN_REQUEST_EVENT_TYPE} and t.account_id = ${accountId}
                and t.opt_in_list_id = lm.list_id
                and m.created_at > ${now.toISOString()}::timestamptz - ${`${String(OPT_IN_CONFIRMATION_WINDOW_DAYS)} days`}::interval)
         order by lm.id
         for update of lm`,
  );
  const confirmedLists: ListConsentEventData[] = [];
  for (const member of pending) {
    if (!isPendingOptInSource(member.consent_source)) continue;
    const consentSource = confirmedOptInSource(member.consent_source, keyword);
    await tx
      .update(listMembers)
      .set({ status: 'optedIn', optInAt: now, consentSource })
      .where(sql`${listMembers.id} = ${member.id}`);
    confirmedLists.push({ list: { id: member.list_id }, contact: { id: contact.id }, status: 'optedIn', at: now.toISOString(), consentSource });
  }
  const confirmed = confirmedLists.length;
  await publishEvents(
    tx,
    confirmedLists.map((data) => ({ type: listConsentEventTypes.optedIn, accountId, data, groupId: null })),
  );
  if (confirmed === 0) return null;
  const record = await findContact(tx, accountId, contact.id);
  // The keyword itself published contactOptIn when it brought the contact back; the lists changed after that.
  const backFromOptOut = contact.optedOutAt !== null || contact.blockedAt !== null;
  if (record) await publishEvent(tx, contactEvent(backFromOptOut ? 'contactUpdated' : 'contactOptIn', accountId, record));
  return optInListConfirmation(context.support);
}
