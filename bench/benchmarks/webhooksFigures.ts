import type { Storage } from '../lib/parley.js';
import { rowsOf } from '../lib/serverModules.js';
import type { WebhookReceiver } from '../lib/webhookReceiver.js';
import type { Fixture, modules } from './webhooksSetup.js';

/*
 * The webhooks benchmark's figures, from the receiver and from the rows once the server has stopped (PGlite
 * takes one process at a time): when the events were written, when the endpoints got them, what the
 * deliveries and their tries say.
 */

export interface FigureInput {
  m: Awaited<ReturnType<typeof modules>>;
  where: Storage;
  f: Fixture;
  receiver: WebhookReceiver;
  jobId: string;
  /** Notification id by endpoint path. */
  ids: Map<string, string>;
  healthyPaths: readonly string[];
  slow: string;
  failing: string;
  executedAt: number;
  healthyDoneAt: number;
  endedAt: number;
  slowAtHealthyDone: { events: number };
}

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.round(ms) / 1000);
const quantile = (sorted: readonly number[], q: number): number | null => (sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null));

/** A delivery's body: its own, or (a webhook's, made by its first try) its event row's. */
const BODY = `(coalesce(d.body, (select e.body from notification_events e where e.position = d.event_position))::jsonb -> 'data' -> 'message' ->> 'jobId')`;

/** Each delivery's state by endpoint for the measured execution. */
const DELIVERIES = `
  select d.notification_id::text as id, count(*)::int as deliveries,
         count(*) filter (where d.status = 'delivered')::int as delivered,
         count(*) filter (where d.status = 'pending')::int as pending,
         count(*) filter (where d.status = 'failed')::int as failed,
         coalesce(sum(d.attempts), 0)::int as tries
    from notification_deliveries d
   where d.account_id = $1 and ${BODY} = $2
   group by d.notification_id`;

/** The failing endpoint's deliveries: tries made, and the wait to the next try after the last. */
const FAILING_TRIES = `
  select d.attempts::int as tries, count(*)::int as deliveries,
         round(avg(extract(epoch from d.next_attempt_at - a.at))::numeric, 1)::float8 as next_try_after_s
    from notification_deliveries d
    -- The latest try is on the delivery's row; the attempt rows hold those before it.
    join lateral (select greatest(d.last_attempt_at, (select max(at) from notification_attempts where delivery_id = d.id)) as at) a on true
   where d.notification_id = $1 and ${BODY} = $2
   group by d.attempts order by d.attempts`;

/** The healthy endpoints' tries by what came of them: a status code, or the error's first words (a timeout ...). */
const HEALTHY_TRIES = `
  select coalesce(t.status_code::text, left(t.error, 40)) as outcome, count(*)::int as tries
    from notification_deliveries d
    cross join lateral (
      select a.status_code, a.error from notification_attempts a where a.delivery_id = d.id
      union all
      select d.last_status_code, d.last_error where d.last_attempt_at is not null
    ) t
   where d.notification_id in (select unnest($1::uuid[])) and ${BODY} = $2
   group by 1 order by 2 desc`;

export async function webhookFigures(input: FigureInput) {
  const { receiver, jobId } = input;
  const byEndpoint = Object.fromEntries([...input.healthyPaths, input.slow, input.failing].map((p) => [p, receiver.counts(p, jobId)]));
  const healthy = input.healthyPaths.map((p) => byEndpoint[p] ?? receiver.counts(p, jobId));
  const lastHealthyAt = Math.max(...healthy.map((c) => c.lastAt ?? 0));
  const slow = receiver.counts(input.slow, jobId);
  const failingTries = [...receiver.tries(input.failing).values()].filter((t) => t.jobId === jobId);
  const gaps = failingTries.flatMap((t) => (t.at.length >= 2 ? [(t.at[1] ?? 0) - (t.at[0] ?? 0)] : [])).sort((a, b) => a - b);
  // A healthy endpoint's repeats: how long after the first request each came (the hold is 2 minutes).
  const repeats = input.healthyPaths
    .flatMap((p) => [...receiver.tries(p).values()].filter((t) => t.jobId === jobId && t.at.length >= 2).map((t) => (t.at[1] ?? 0) - (t.at[0] ?? 0)))
    .sort((a, b) => a - b);
  const triesCount = new Map<number, number>();
  for (const t of failingTries) triesCount.set(t.at.length, (triesCount.get(t.at.length) ?? 0) + 1);

  const database = await input.m.openDatabase({ ...input.where, poolMax: 1 });
  try {
    const [events] = await rowsOf(
      database,
      `select count(*)::int as n, (extract(epoch from min(e.created_at)) * 1000)::float8 as first_ms, (extract(epoch from max(e.created_at)) * 1000)::float8 as last_ms
         from events e cross join lateral jsonb_array_elements(e.data -> 'messages') as m(item)
         join messages msg on msg.id = (m.item ->> 0)::uuid and msg.job_id = $2
        where e.account_id = $1 and e.type = 'messageStatus' and m.item ->> 1 = 'delivered'`,
      [input.f.accountId, jobId],
    );
    const deliveries = await rowsOf(database, DELIVERIES, [input.f.accountId, jobId]);
    const failingRows = await rowsOf(database, FAILING_TRIES, [input.ids.get(input.failing), jobId]);
    const healthyTries = await rowsOf(database, HEALTHY_TRIES, [input.healthyPaths.map((p) => input.ids.get(p)), jobId]);
    const lastEventAt = typeof events?.last_ms === 'number' ? events.last_ms : null;
    const firstEventAt = typeof events?.first_ms === 'number' ? events.first_ms : null;
    const pathOf = new Map([...input.ids].map(([path, id]) => [id, path]));
    return {
      eventsWritten: Number(events?.n ?? 0),
      /** From Execute's request to the first and the last delivered-status event written. */
      firstEventSeconds: seconds(firstEventAt === null ? null : firstEventAt - input.executedAt),
      lastEventSeconds: seconds(lastEventAt === null ? null : lastEventAt - input.executedAt),
      /** The target's figure: the last event written to the last healthy endpoint's last first arrival. */
      lastEventToLastHealthySeconds: seconds(lastEventAt === null ? null : lastHealthyAt - lastEventAt),
      executeToLastHealthySeconds: seconds(lastHealthyAt - input.executedAt),
      healthyComplete: healthy.every((c) => c.events === Number(events?.n ?? -1)),
      duplicates: healthy.reduce((sum, c) => sum + c.duplicates, 0) + slow.duplicates,
      /** Seconds from a healthy endpoint's first request for an event to its second, where there was one. */
      duplicateAfterSeconds: { samples: repeats.length, min: seconds(repeats[0] ?? null), p50: seconds(quantile(repeats, 0.5)), max: seconds(repeats.at(-1) ?? null) },
      /** Healthy deliveries a second, from the first event written to the last healthy arrival. */
      healthyDeliveriesPerSecond: firstEventAt === null ? null : Math.round((healthy.reduce((s, c) => s + c.events, 0) * 1000) / Math.max(1, lastHealthyAt - firstEventAt)),
      /** The healthy endpoints' tries as the sender logged them: a try it gave up on (a timeout) is sent again. */
      healthyTriesByOutcome: Object.fromEntries(healthyTries.map((r) => [String(r.outcome), Number(r.tries)])),
      endpoints: Object.fromEntries(
        Object.entries(byEndpoint).map(([path, c]) => [path, { events: c.events, requests: c.requests, duplicates: c.duplicates, firstSeconds: seconds(c.firstAt === null ? null : c.firstAt - input.executedAt), lastSeconds: seconds(c.lastAt === null ? null : c.lastAt - input.executedAt) }]),
      ),
      slow: {
        answerMs: 1000,
        eventsWhenHealthyDone: input.slowAtHealthyDone.events,
        eventsAtEnd: slow.events,
        perSecond: slow.firstAt === null || slow.lastAt === null ? null : Math.round((slow.events * 10_000) / Math.max(1, slow.lastAt - slow.firstAt)) / 10,
      },
      failing: {
        eventsTried: failingTries.length,
        eventsByTries: Object.fromEntries(triesCount),
        /** Seconds from an event's first try to its second, as the receiver saw them (the schedule says 5 s). */
        firstToSecondTrySeconds: { samples: gaps.length, min: seconds(gaps[0] ?? null), p50: seconds(quantile(gaps, 0.5)), p99: seconds(quantile(gaps, 0.99)), max: seconds(gaps.at(-1) ?? null) },
        /** The deliveries by tries made, and the mean wait to their next try (the schedule: 5 min after the second). */
        deliveriesByTries: failingRows.map((r) => ({ tries: Number(r.tries), deliveries: Number(r.deliveries), nextTryAfterSeconds: Number(r.next_try_after_s) })),
        waitedAfterHealthySeconds: seconds(input.endedAt - input.healthyDoneAt),
      },
      deliveryRows: Object.fromEntries(deliveries.map((d) => [pathOf.get(String(d.id)) ?? String(d.id), { deliveries: d.deliveries, delivered: d.delivered, pending: d.pending, failed: d.failed, tries: d.tries }])),
    };
  } finally {
    await database.close();
  }
}
