import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../platform/db/client.js';
import { queryRows } from '../../platform/db/client.js';
import { outcomeOf, type TryResult } from './deliveryOutcome.js';
import { syncEventSubscriptions } from './eventSubscriptions.js';
import { ENDPOINT_FAILING_DISABLE_MS, nextRetryDelay } from './retrySchedule.js';

/** A notification Parley disabled by itself in this write: for telling its account's administrators. */
export interface DisabledEndpoint {
  id: string;
  accountId: string;
  destination: string;
  reason: 'gone' | 'failing';
}

const uuidList = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

interface DeliveryChange {
  id: string;
  attempt: number;
  status: 'pending' | 'delivered' | 'failed';
  nextAt: Date;
  deliveredAt: Date | null;
}

function changeOf(result: TryResult): DeliveryChange {
  switch (outcomeOf(result)) {
    case 'delivered':
      return { id: result.deliveryId, attempt: result.attempt, status: 'delivered', nextAt: result.at, deliveredAt: result.at };
    case 'gone':
      return { id: result.deliveryId, attempt: result.attempt, status: 'failed', nextAt: result.at, deliveredAt: null };
    case 'retry': {
      const delay = nextRetryDelay(result.attempt, result.createdAt, result.at);
      return delay === null
        ? { id: result.deliveryId, attempt: result.attempt, status: 'failed', nextAt: result.at, deliveredAt: null }
        : { id: result.deliveryId, attempt: result.attempt, status: 'pending', nextAt: new Date(result.at.getTime() + delay), deliveredAt: null };
    }
  }
}

/**
 * Writes the tries' results in one transaction: each delivery's new state, one attempt row each, and what they
 * say of their endpoints: a success ends an endpoint's run of failures, a failure starts one, a 410 disables
 * it ('gone'), and a run of failures older than ENDPOINT_FAILING_DISABLE_MS disables it ('failing').
 * Answers the endpoints disabled here.
 */
export function writeTryResults(db: Db, results: readonly TryResult[]): Promise<DisabledEndpoint[]> {
  if (results.length === 0) return Promise.resolve([]);
  const changes = results.map(changeOf);
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      update notification_deliveries d
         set status = v.status, next_attempt_at = v.next_at, delivered_at = v.delivered_at
        from (values ${sql.join(
          changes.map(
            (c) =>
              sql`(${c.id}::uuid, ${c.attempt}::int, ${c.status}::text, ${c.nextAt.toISOString()}::timestamptz, ${c.deliveredAt?.toISOString() ?? null}::timestamptz)`,
          ),
          sql`, `,
        )}) as v(id, attempt, status, next_at, delivered_at)
       -- Only the latest try decides: a late answer to a try whose hold ran out (another sender tried again) is logged, no more.
       where d.id = v.id and d.attempts = v.attempt and d.status = 'pending'`);
    await tx.execute(sql`
      insert into notification_attempts (id, delivery_id, attempt, at, status_code, duration_ms, error, response_head)
      values ${sql.join(
        results.map(
          (r) =>
            sql`(${uuidv7()}::uuid, ${r.deliveryId}::uuid, ${r.attempt}::int, ${r.at.toISOString()}::timestamptz, ${r.statusCode}::int, ${r.durationMs}::int, ${r.error}::text, ${r.responseHead}::text)`,
        ),
        sql`, `,
      )}`);
    const succeeded = [...new Set(results.filter((r) => outcomeOf(r) === 'delivered').map((r) => r.notificationId))];
    const gone = [...new Set(results.filter((r) => outcomeOf(r) === 'gone').map((r) => r.notificationId))];
    const failedAt = new Map<string, Date>();
    for (const r of results) if (outcomeOf(r) === 'retry' && !failedAt.has(r.notificationId)) failedAt.set(r.notificationId, r.at);
    if (succeeded.length > 0) {
      await tx.execute(sql`update notifications set failing_since = null where id = any(${uuidList(succeeded)}) and failing_since is not null`);
    }
    // An endpoint that also succeeded in this batch is not failing.
    const failing = [...failedAt.keys()].filter((id) => !succeeded.includes(id));
    if (failing.length > 0) {
      await tx.execute(sql`update notifications set failing_since = now() where id = any(${uuidList(failing)}) and failing_since is null`);
    }
    const disabled = await queryRows<{ id: string; account_id: string; destination: string; reason: 'gone' | 'failing' }>(
      tx,
      sql`update notifications
             set disabled = true, disabled_reason = case when id = any(${uuidList(gone)}) then 'gone' else 'failing' end, updated_at = now()
           where not disabled
             and (id = any(${uuidList(gone)})
                  or (id = any(${uuidList(failing)}) and failing_since < now() - ${ENDPOINT_FAILING_DISABLE_MS} * interval '1 millisecond'))
       returning id, account_id, destination, disabled_reason as reason`,
    );
    for (const accountId of new Set(disabled.map((d) => d.account_id))) await syncEventSubscriptions(tx, accountId);
    return disabled.map((d) => ({ id: d.id, accountId: d.account_id, destination: d.destination, reason: d.reason }));
  });
}
