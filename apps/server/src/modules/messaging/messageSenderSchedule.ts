import { sql } from 'drizzle-orm';
import { isWithinHours, nextOpening } from '@parley/shared';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import { TimeZoneResolver } from './timeZones.js';
import type { AccountSendContext, PreparedMessage } from './messageSenderPrepare.js';

export interface Schedule {
  /** The recipient's zone; null when the account's quiet hours do not apply to the message. */
  timeZone: string | null;
  /** Now, or the next opening of the account's hours in the recipient's zone. */
  sendAfter: Date;
  /** The sender chose to send it now, outside the recipient's acceptable hours. */
  approvedOutsideHours: boolean;
}

/** A contact who wrote to the account within this long is answered at once, whatever the hour. */
export const CONVERSATIONAL_REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How quiet hours treat a send (docs/messaging.md, "Quiet hours"): they exist for unsolicited and bulk
 * texting, so they hold campaigns, sends to several people and one-to-one messages nobody asked for; a
 * reply to a contact who wrote in the last 24 hours goes at once, and so does a one-to-one message its
 * sender confirmed outside the hours (`sendNow`).
 */
export interface SchedulePolicy {
  /** One recipient, and not part of a campaign. */
  oneToOne: boolean;
  /** The sender confirmed sending now; only for a one-to-one send. */
  sendNow: boolean;
}

/** Whether the contact's last message to the account came within the conversational reply window. */
export async function wroteRecently(q: Queryable, accountId: string, contactId: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - CONVERSATIONAL_REPLY_WINDOW_MS).toISOString();
  const [row] = await queryRows<{ recent: boolean }>(
    q,
    sql`select exists (select 1 from messages where contact_id = ${contactId} and account_id = ${accountId}
                          and direction = 'inbound' and created_at > ${since}::timestamptz) as recent`,
  );
  return row?.recent ?? false;
}

/**
 * When each message may go (quiet hours in the recipient's local time, DESIGN.md): the zone comes from the
 * number; recipients in one zone share one answer, so a campaign works it out once per zone.
 */
export async function scheduleMessages(
  q: Queryable,
  context: AccountSendContext,
  prepared: readonly PreparedMessage[],
  policy: SchedulePolicy,
  now: Date,
): Promise<Schedule[]> {
  const { quietHours } = context;
  const atOnce = (): Schedule[] => prepared.map(() => ({ timeZone: null, sendAfter: now, approvedOutsideHours: false }));
  if (!quietHours.enabled) return atOnce();
  const [only] = prepared;
  if (policy.oneToOne && only !== undefined && (await wroteRecently(q, context.accountId, only.recipient.contact.id, now))) return atOnce();
  const resolver = await TimeZoneResolver.create();
  const zones = await resolver.zonesOf(
    prepared.map((p) => ({ number: p.recipient.contact.mobileNumber, country: p.recipient.contact.mobileCountry })),
    context.defaultCountry,
  );
  if (policy.oneToOne && policy.sendNow) {
    return zones.map((timeZone) => ({ timeZone, sendAfter: now, approvedOutsideHours: !isWithinHours(now, timeZone, quietHours) }));
  }
  const openings = new Map<string, Date>();
  return zones.map((timeZone) => {
    let sendAfter = openings.get(timeZone);
    if (sendAfter === undefined) {
      sendAfter = nextOpening(now, timeZone, quietHours);
      openings.set(timeZone, sendAfter);
    }
    return { timeZone, sendAfter, approvedOutsideHours: false };
  });
}
