import { sql } from 'drizzle-orm';
import { DELIVERY_HEALTH_WINDOW_HOURS, deliveryHealthLevel, type DeliveryHealth } from '@parley/shared';
import { queryRows, type Queryable } from '../../platform/db/client.js';

/*
 * Delivery health (docs/reports.md, "Delivery health"): the account's outgoing texts created in the last 24
 * hours, where they stand now, the contacts who opted out in that time, and the carriers' error codes. Read
 * from the messages themselves (messages_account_idx: account, created), never from a counter kept aside.
 */

const HOUR_MS = 3_600_000;
const TOP = 5;

interface Counts extends Record<string, unknown> {
  outbound: number;
  delivered: number;
  errors: number;
  awaiting: number;
  queued: number;
  held: number;
  recipients: number;
}

const rate = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

export async function deliveryHealth(q: Queryable, accountId: string, now: Date = new Date()): Promise<DeliveryHealth> {
  const since = new Date(now.getTime() - DELIVERY_HEALTH_WINDOW_HOURS * HOUR_MS);
  const window = sql`m.account_id = ${accountId} and m.direction = 'outbound' and m.created_at >= ${since.toISOString()}::timestamptz`;
  const [counts] = await queryRows<Counts>(
    q,
    sql`select count(*)::int as outbound,
          count(*) filter (where m.status = 'delivered')::int as delivered,
          count(*) filter (where m.status in ('failed', 'undelivered'))::int as errors,
          count(*) filter (where m.status in ('sending', 'sent'))::int as awaiting,
          count(*) filter (where m.status = 'queued')::int as queued,
          -- Held for the recipient's quiet hours: queued with the zone kept, for later than now.
          count(*) filter (where m.status = 'queued' and m.time_zone is not null and m.send_after > ${now.toISOString()}::timestamptz)::int as held,
          count(distinct m.contact_id)::int as recipients
        from messages m where ${window}`,
  );
  const [optOuts] = await queryRows<{ n: number }>(
    q,
    sql`select count(*)::int as n from contacts c where c.account_id = ${accountId} and c.opted_out_at >= ${since.toISOString()}::timestamptz`,
  );
  const carrierErrors = await queryRows<{ code: string; description: string; count: number }>(
    q,
    sql`select coalesce(m.error_code, '') as code, coalesce(max(m.error_description), '') as description, count(*)::int as count
        from messages m where ${window} and m.status in ('failed', 'undelivered')
        group by coalesce(m.error_code, '') order by count(*) desc, coalesce(m.error_code, '') limit ${TOP}`,
  );
  const recent = await queryRows<{ message_id: string; conversation_id: string; to: string; code: string; description: string; at: Date | string }>(
    q,
    sql`select m.id as message_id, m.conversation_id, m.to_number as "to", coalesce(m.error_code, '') as code,
          coalesce(m.error_description, '') as description, coalesce(m.status_at, m.created_at) as at
        from messages m where ${window} and m.status in ('failed', 'undelivered')
        order by m.created_at desc, m.id desc limit ${TOP}`,
  );
  const c: Counts = counts ?? { outbound: 0, delivered: 0, errors: 0, awaiting: 0, queued: 0, held: 0, recipients: 0 };
  const optedOut = optOuts?.n ?? 0;
  const settled = c.delivered + c.errors;
  return {
    since: since.toISOString(),
    level: deliveryHealthLevel({ delivered: c.delivered, errors: c.errors, recipients: c.recipients, optOuts: optedOut }),
    outbound: c.outbound,
    delivered: c.delivered,
    errors: c.errors,
    awaiting: c.awaiting,
    queued: c.queued,
    heldForQuietHours: c.held,
    deliveryRate: rate(c.delivered, settled),
    errorRate: rate(c.errors, settled),
    recipients: c.recipients,
    optOuts: optedOut,
    carrierErrors,
    recentErrors: recent.map((r) => ({
      messageId: r.message_id,
      conversationId: r.conversation_id,
      to: r.to,
      code: r.code,
      description: r.description,
      at: new Date(r.at).toISOString(),
    })),
  };
}
