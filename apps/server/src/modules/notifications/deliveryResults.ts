import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/client.js';
import { queryRows } from '../../platform/db/client.js';
import { outcomeOf, type TryResult } from './deliveryOutcome.js';
import { syncEventSubscriptions } from './eventSubscriptions.js';
import { ENDPOINT_FAILING_DISABLE_MS, nextRetryDelay } from './retrySchedule.js';
import { bulkUuidV7 } from '../contacts/index.js';
import { jsonRecords } from '../../platform/db/jsonRecords.js';
import type { NotificationDeliveryRow } from '../../platform/db/schema/index.js';

/** A notification Parley disabled by itself in this write: for telling its account's administrators. */
export interface DisabledEndpoint {
  id: string;
  accountId: string;
  destination: string;
  reason: 'gone' | 'failing';
}

const uuidList = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

/** PostgreSQL text holds no NUL; an answer's head may. */
const storable = (text: string | null): string | null => (text === null ? null : text.replaceAll('\u0000', ''));

interface TryLine {
  attempt: number;
  status: NotificationDeliveryRow['status'];
  next_at: string;
  delivered_at: string | null;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_head: string | null;
}

/**
 * A try as the results statements read it (json_to_recordset): the delivery's new state and the try's line in
 * its log, times as ISO text, each turned into text once (JSON.stringify turns a Date again wherever it meets it).
 */
function tryLine(r: TryResult): TryLine {
  const at = r.at.toISOString();
  const line: TryLine = { attempt: r.attempt, status: 'delivered', next_at: at, delivered_at: at, at, status_code: r.statusCode, duration_ms: r.durationMs, error: storable(r.error), response_head: storable(r.responseHead) };
  switch (outcomeOf(r)) {
    case 'delivered':
      return line;
    case 'gone':
      return { ...line, status: 'failed', delivered_at: null };
    case 'retry': {
      const delay = nextRetryDelay(r.attempt, r.createdAt, r.at);
      return delay === null ? { ...line, status: 'failed', delivered_at: null } : { ...line, status: 'pending', next_at: new Date(r.at.getTime() + delay).toISOString(), delivered_at: null };
    }
  }
}

/** A try at a delivery row, with the id of an attempt row should its line (or the line it moves out of the row) need one. */
const tryOf = (r: TryResult) => ({ id: r.deliveryId, delivery_id: r.deliveryId, ...tryLine(r), line_id: bulkUuidV7(r.at.getTime()) });

/**
 * A first try at an event read from a cursor, as its delivery row. Built from the general try spread into
 * another, its times turned into text again and an attempt row's id made for every try (only a try again at an
 * event with a row needs one), it cost the sender 14 µs a delivery; this way 2.
 */
const firstTryOf = (r: TryResult, event: NonNullable<TryResult['event']>) => ({
  id: r.deliveryId,
  account_id: r.accountId,
  notification_id: r.notificationId,
  position: event.position,
  event_id: event.eventId,
  event_type: event.eventType,
  created_at: r.createdAt.toISOString(),
  ...tryLine(r),
});

const TRIES = sql`v(id uuid, attempt int, status text, next_at timestamptz, delivered_at timestamptz, delivery_id uuid, at timestamptz,
                    status_code int, duration_ms int, error text, response_head text, line_id uuid)`;

const FIRST_TRIES = sql`v(id uuid, account_id uuid, notification_id uuid, position bigint, event_id text, event_type text, created_at timestamptz,
                          attempt int, status text, next_at timestamptz, delivered_at timestamptz, at timestamptz, status_code int,
                          duration_ms int, error text, response_head text, line_id uuid)`;

/** A webhook's cursor moved by a batch: every event it wants up to `position` is tried, its result in the batch or before. */
export interface CursorMove {
  id: string;
  position: number;
}

/**
 * First tries at events read from a webhook's cursor: each makes its delivery row, with the try as its last
 * and its body by reference to the event row (a body written once per event, not once per webhook). A try at
 * an event that has a row already (a sender that took over tried it again) is a line of that row's log.
 */
async function writeFirstTries(tx: Tx, results: readonly TryResult[]): Promise<void> {
  const tried = results.flatMap((r) => (r.event === null ? [] : [{ at: r.at, row: firstTryOf(r, r.event) }]));
  const first = tried.map((t) => t.row);
  if (first.length === 0) return;
  const [made] = await queryRows<{ n: number }>(
    tx,
    sql`with made as (
          insert into notification_deliveries (id, account_id, notification_id, event_id, event_type, event_position, status, attempts,
                                               next_attempt_at, created_at, delivered_at, last_attempt, last_attempt_at, last_status_code,
                                               last_duration_ms, last_error, last_response_head)
          select v.id, v.account_id, v.notification_id, v.event_id, v.event_type, v.position, v.status, v.attempt,
                 v.next_at, v.created_at, v.delivered_at, v.attempt, v.at, v.status_code, v.duration_ms, v.error, v.response_head
            from json_to_recordset(${jsonRecords(first)}) as ${FIRST_TRIES}
          on conflict (notification_id, event_id) do nothing
          returning 1)
        select count(*)::int as n from made`,
  );
  if ((made?.n ?? 0) === first.length) return;
  // Tried before (a sender that took over): a line of the log of the row there is. This statement's snapshot
  // was taken after the insert above, so rows it made are found too; only lines of tries not on them are added.
  const lines = tried.map(({ at, row }) => ({ ...row, line_id: bulkUuidV7(at.getTime()) }));
  await tx.execute(sql`
    insert into notification_attempts (id, delivery_id, attempt, at, status_code, duration_ms, error, response_head)
    select v.line_id, d.id, v.attempt, v.at, v.status_code, v.duration_ms, v.error, v.response_head
      from json_to_recordset(${jsonRecords(lines)}) as ${FIRST_TRIES}
      join notification_deliveries d on d.notification_id = v.notification_id and d.event_id = v.event_id
     where d.id <> v.id`);
}

/**
 * Writes the tries' results in one transaction: each delivery's new state with its try as the last (on its
 * row: a delivery that succeeds at once writes no attempt row), the try it replaces as the last moved into
 * the attempt rows, the rows of first tries at events read from a cursor, the cursors moved, and what they
 * say of their endpoints: a success ends an endpoint's run of failures, a failure starts one, a 410 disables
 * it ('gone'), and a run of failures older than ENDPOINT_FAILING_DISABLE_MS disables it ('failing'). Answers
 * the endpoints disabled here.
 */
export function writeTryResults(db: Db, all: readonly TryResult[], cursors: readonly CursorMove[] = []): Promise<DisabledEndpoint[]> {
  if (all.length === 0 && cursors.length === 0) return Promise.resolve([]);
  const results = all.filter((r) => r.event === null);
  return db.transaction(async (tx) => {
    await writeFirstTries(tx, all);
    if (cursors.length > 0) {
      await tx.execute(sql`
        update notifications n set sent_position = greatest(n.sent_position, c.position)
          from json_to_recordset(${jsonRecords(cursors)}) as c(id uuid, position bigint)
         where n.id = c.id`);
    }
    if (results.length > 0) await writeRowTries(tx, results);
    return endpointOutcomes(tx, all);
  });
}

/** Tries at delivery rows (retries, resends, test events, mails). */
async function writeRowTries(tx: Tx, results: readonly TryResult[]): Promise<void> {
  // Each batch as one JSON parameter (platform/db/jsonRecords.ts): a statement's text and parameters do not grow with it.
  const tries = jsonRecords(results.map(tryOf));
  // Only the latest try decides: a late answer to a try whose hold ran out (another sender tried again) is
  // logged, no more. The deliveries it decides are locked first, so the last try moved out is the one replaced.
  await tx.execute(sql`
    insert into notification_attempts (id, delivery_id, attempt, at, status_code, duration_ms, error, response_head)
    select v.line_id, d.id, d.last_attempt, d.last_attempt_at, d.last_status_code, coalesce(d.last_duration_ms, 0), d.last_error, d.last_response_head
      from json_to_recordset(${tries}) as ${TRIES}
      join notification_deliveries d on d.id = v.id
     where d.attempts = v.attempt and d.status = 'pending' and d.last_attempt_at is not null
       for update of d`);
  const decided = await queryRows<{ id: string; attempt: number }>(
    tx,
    sql`update notification_deliveries d
           set status = v.status, next_attempt_at = v.next_at, delivered_at = v.delivered_at, last_attempt = v.attempt, last_attempt_at = v.at,
               last_status_code = v.status_code, last_duration_ms = v.duration_ms, last_error = v.error, last_response_head = v.response_head
          from json_to_recordset(${tries}) as ${TRIES}
         where d.id = v.id and d.attempts = v.attempt and d.status = 'pending'
     returning d.id, d.attempts as attempt`,
  );
  const key = (id: string, attempt: number): string => `${id}:${String(attempt)}`;
  const onRows = new Set(decided.map((d) => key(d.id, d.attempt)));
  // The late answers (and tries at a delivery done meanwhile): a line of their own each.
  const late = results.filter((r) => !onRows.has(key(r.deliveryId, r.attempt))).map(tryOf);
  if (late.length > 0) {
    await tx.execute(sql`
      insert into notification_attempts (id, delivery_id, attempt, at, status_code, duration_ms, error, response_head)
      select v.line_id, v.delivery_id, v.attempt, v.at, v.status_code, v.duration_ms, v.error, v.response_head
        from json_to_recordset(${jsonRecords(late)}) as ${TRIES}`);
  }
}

/** What a batch's tries say of their endpoints: failing, no longer failing, disabled. */
async function endpointOutcomes(tx: Tx, results: readonly TryResult[]): Promise<DisabledEndpoint[]> {
  const succeeded = [...new Set(results.filter((r) => outcomeOf(r) === 'delivered').map((r) => r.notificationId))];
  const gone = [...new Set(results.filter((r) => outcomeOf(r) === 'gone').map((r) => r.notificationId))];
  const failedAt = new Map<string, Date>();
  for (const r of results) if (outcomeOf(r) === 'retry' && !failedAt.has(r.notificationId)) failedAt.set(r.notificationId, r.at);
  if (succeeded.length > 0) {
    await tx.execute(sql`update notifications set failing_since = null where id in (select unnest(${uuidList(succeeded)})) and failing_since is not null`);
  }
  // An endpoint that also succeeded in this batch is not failing.
  const failing = [...failedAt.keys()].filter((id) => !succeeded.includes(id));
  if (failing.length > 0) {
    await tx.execute(sql`update notifications set failing_since = now() where id in (select unnest(${uuidList(failing)})) and failing_since is null`);
  }
  if (gone.length === 0 && failing.length === 0) return [];
  const disabled = await queryRows<{ id: string; account_id: string; destination: string; reason: 'gone' | 'failing' }>(
    tx,
    sql`update notifications
           set disabled = true, disabled_reason = case when id in (select unnest(${uuidList(gone)})) then 'gone' else 'failing' end, updated_at = now()
         where not disabled
           and (id in (select unnest(${uuidList(gone)}))
                or (id in (select unnest(${uuidList(failing)})) and failing_since < now() - ${ENDPOINT_FAILING_DISABLE_MS} * interval '1 millisecond'))
     returning id, account_id, destination, disabled_reason as reason`,
  );
  for (const accountId of new Set(disabled.map((d) => d.account_id))) await syncEventSubscriptions(tx, accountId);
  return disabled.map((d) => ({ id: d.id, accountId: d.account_id, destination: d.destination, reason: d.reason }));
}
