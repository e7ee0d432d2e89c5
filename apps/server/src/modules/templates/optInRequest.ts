import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { normaliseContactMobile } from '@parley/shared';
import { sendMessagesIn } from '../messaging/index.js';
import { queryRows, type Db } from '../../platform/db/client.js';
import { listMembers } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { contactForNumber } from './contactByNumber.js';
import { OPT_IN_REQUEST_EVENT_TYPE, pendingOptInSource } from '../messaging/index.js';
import type { PublicTemplate } from './publicTemplates.js';

/** Confirmation requests one number may be sent by an account's opt-in pages in a day. */
export const OPT_IN_REQUESTS_PER_NUMBER = 3;
const OPT_IN_REQUEST_WINDOW = '24 hours';

export interface OptInRequest {
  page: PublicTemplate;
  /** The template's list (optInListId, checked by the caller). */
  listId: string;
  /** As typed, with the country chosen on the page. */
  number: string;
  country: string;
  /** The requester's IP address. */
  address: string;
  now?: Date;
}

export type OptInRequestOutcome =
  /** The membership waits for the reply; the template's text was queued to the number (and charged). */
  | { kind: 'requested'; number: string; messageId: string; heldForQuietHours: boolean }
  /** The number is on the list already: nothing was written or sent. */
  | { kind: 'alreadyOptedIn'; number: string }
  /** The number was sent OPT_IN_REQUESTS_PER_NUMBER requests in the last day: nothing was written or sent. */
  | { kind: 'tooManyRequests'; number: string }
  /** The number is not valid for the country: nothing was written. */
  | { kind: 'invalidNumber'; message: string }
  /** The number cannot be texted now (opted out, blocked, no sender, no credit): nothing was written. */
  | { kind: 'notSendable'; number: string; reason: string };

/** Rolls the sign-up back when its text cannot be sent: a membership nobody was asked to confirm is not kept. */
class NotSendable extends Error {}

/**
 * A sign-up on a template's opt-in page, in one transaction: the contact of the number is found or created,
 * the list membership records the pending request (source, address, time; see optInConsent.ts) and the
 * template's text is queued to the number through the message sender as Parley itself, charged like any
 * message. All or nothing: when the text cannot be sent, nothing is kept.
 */
export async function requestOptIn(db: Db, request: OptInRequest): Promise<OptInRequestOutcome> {
  const now = request.now ?? new Date();
  const { page, listId } = request;
  const accountId = page.account.id;
  const mobile = normaliseContactMobile(request.number, request.country, page.account.defaultCountry);
  if (!mobile.valid) return { kind: 'invalidNumber', message: mobile.errorDescription };
  const number = mobile.number;

  try {
    return await db.transaction(async (tx): Promise<OptInRequestOutcome> => {
      const { contact } = await contactForNumber(tx, accountId, mobile, {}, now);
      const [recent] = await queryRows<{ count: number }>(
        tx,
        sql`select count(*)::int as count from messages
             where account_id = ${accountId} and contact_id = ${contact.id} and direction = 'outbound'
               and event_type = ${OPT_IN_REQUEST_EVENT_TYPE}
               and created_at > ${now.toISOString()}::timestamptz - ${OPT_IN_REQUEST_WINDOW}::interval`,
      );
      if ((recent?.count ?? 0) >= OPT_IN_REQUESTS_PER_NUMBER) return { kind: 'tooManyRequests', number };

      const [member] = await tx
        .select()
        .from(listMembers)
        .where(and(eq(listMembers.accountId, accountId), eq(listMembers.listId, listId), eq(listMembers.contactId, contact.id)))
        .for('update');
      if (member?.status === 'optedIn') return { kind: 'alreadyOptedIn', number };
      const consentSource = pendingOptInSource(request.address, now);
      // A new member waits as `subscribed`; one who opted out stays opted out until the reply.
      if (member) await tx.update(listMembers).set({ consentSource }).where(eq(listMembers.id, member.id));
      else await tx.insert(listMembers).values({ id: uuidv7(), accountId, listId, contactId: contact.id, status: 'subscribed', consentSource, createdAt: now });

      const sent = await sendMessagesIn(tx, {
        accountId,
        actor: { kind: 'system' },
        contactIds: [contact.id],
        template: page.template.template,
        media: page.template.media,
        templateId: page.template.id,
        eventType: OPT_IN_REQUEST_EVENT_TYPE,
        chargeDescription: `Opt-in confirmation request to ${number}`,
        whenNoneSendable: 'return',
        now,
      });
      const [message] = sent.messages;
      if (message === undefined) throw new NotSendable(sent.unsendable[0]?.error.message ?? 'The number cannot be texted.');
      return { kind: 'requested', number, messageId: message.id, heldForQuietHours: message.sendAfter.getTime() > now.getTime() };
    });
  } catch (error) {
    if (error instanceof NotSendable || error instanceof AppError) return { kind: 'notSendable', number, reason: error.message };
    throw error;
  }
}
