import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { OUTBOX_TYPE_OF } from './eventTypes.js';

const SUBSCRIBER = 'notifications';

const mapping = Object.entries(OUTBOX_TYPE_OF).flatMap(([kebab, outbox]) => (outbox === null ? [] : [sql`(${kebab}, ${outbox})`]));

/**
 * Tells the outbox which event types the account's enabled notifications want (event_subscriptions), so
 * those are written pending and reach the notifications' subscriber. Called in the transaction of every
 * change to the account's notifications.
 */
export async function syncEventSubscriptions(q: Queryable, accountId: string): Promise<void> {
  await q.execute(sql`delete from event_subscriptions where account_id = ${accountId} and subscriber = ${SUBSCRIBER}`);
  await q.execute(sql`
    insert into event_subscriptions (account_id, type, subscriber)
    select distinct ${accountId}::uuid, m.outbox_type, ${SUBSCRIBER}
      from notifications n
      cross join lateral unnest(n.event_types) as t(kebab)
      join (values ${sql.join(mapping, sql`, `)}) as m(kebab, outbox_type) on m.kebab = t.kebab
     where n.account_id = ${accountId} and not n.disabled`);
}
