import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../platform/db/client.js';

/** A webhook this sender reads the events of (docs/notifications.md, "Deliveries"), as its lease answers it. */
export type LeaseRow = {
  id: string;
  account_id: string;
  destination: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
  sent_position: number | string;
};

/** An event read from a webhook's cursor on. */
export type EventRow = {
  notification_id: string;
  /** Still this sender's and enabled: otherwise nothing is read for it. */
  held: boolean;
  horizon: number | string;
  position: number | string | null;
  event_id: string | null;
  event_type: string | null;
  /** On one row of each event a read answers: the event's other rows (other webhooks wanting it) leave it null. */
  body: string | null;
  created_at: Date | string | null;
};

const list = (values: readonly (string | number | boolean)[]) => sql`string_to_array(${values.map(String).join(',')}, ',')`;

/**
 * Takes the webhooks that have events past their cursor and no live sender, and renews the ones this sender
 * holds (`mine`) once half their hold has passed: one sender reads a webhook's events at a time, and another
 * takes over once `holdMs` has passed without a renewal (the one before died). A held webhook not answered
 * here is still held: each read checks that it is (readEvents).
 */
export function takeLeases(db: Db, senderId: string, mine: readonly string[], holdMs: number): Promise<LeaseRow[]> {
  return queryRows<LeaseRow>(
    db,
    sql`update notifications n
           set sender_id = ${senderId}, sender_until = now() + ${holdMs} * interval '1 millisecond'
         where n.type = 'webhook' and not n.disabled
           and ((n.sender_id = ${senderId} and n.id in (select unnest(${list(mine)}::uuid[])) and n.sender_until < now() + ${holdMs / 2} * interval '1 millisecond')
                or ((n.sender_until is null or n.sender_until < now())
                    and n.sent_position < coalesce((select max(e.position) from notification_events e where e.account_id = n.account_id), 0)))
     returning n.id, n.account_id, n.destination, n.secret, n.previous_secret, n.previous_secret_until, n.sent_position`,
  );
}

/** Lets go of this sender's webhooks, so another sender may take them at once. */
export async function releaseLeases(db: Db, senderId: string): Promise<void> {
  await db.execute(sql`update notifications set sender_id = null, sender_until = null where sender_id = ${senderId}`);
}

export interface EventWant {
  id: string;
  accountId: string;
  after: number;
  limit: number;
  /** Just taken over: skip the events it has a delivery for (its sender before died after trying them). */
  fresh: boolean;
}

/**
 * The next events each webhook wants after its position, oldest first, in one statement; with each webhook
 * its account's last position (`horizon`) even when none is wanted, so a cursor moves past the events
 * of other webhooks, and whether the webhook is still this sender's. Every event of an account up to its last visible position is visible (the fan-out
 * writes an account's positions in commit order). An event several webhooks want comes with its body once:
 * ten webhooks of an account reading a campaign's statuses would otherwise carry each body ten times.
 */
export function readEvents(db: Db, senderId: string, wants: readonly EventWant[]): Promise<EventRow[]> {
  if (wants.length === 0) return Promise.resolve([]);
  return queryRows<EventRow>(
    db,
    sql`select r.id as notification_id, n.id is not null as held, h.horizon, e.position, e.event_id, e.event_type,
               case when row_number() over (partition by e.position order by r.id) = 1 then e.body end as body, e.created_at
          from unnest(${list(wants.map((w) => w.id))}::uuid[], ${list(wants.map((w) => w.accountId))}::uuid[],
                      ${list(wants.map((w) => w.after))}::bigint[], ${list(wants.map((w) => w.limit))}::int[],
                      ${list(wants.map((w) => w.fresh))}::bool[]) as r(id, account_id, after, lim, fresh)
          left join notifications n on n.id = r.id and n.sender_id = ${senderId} and not n.disabled
          cross join lateral (
            select coalesce(max(x.position), 0) as horizon from notification_events x where x.account_id = r.account_id
          ) h
          left join lateral (
            select e.position, e.event_id, e.event_type, e.body, e.created_at
              from notification_events e
             where n.id is not null and e.account_id = r.account_id and e.position > r.after and e.position <= h.horizon
               and e.notification_ids @> array[r.id]
               and (not r.fresh or not exists (
                 select 1 from notification_deliveries d where d.notification_id = r.id and d.event_id = e.event_id))
             order by e.position
             limit r.lim
          ) e on true
         order by r.id, e.position`,
  );
}

/**
 * What a sender knows of one webhook's cursor: how far it has read, and the positions it read whose results
 * are not yet on their way to the database, oldest first. The cursor may move up to just before the oldest
 * of those: everything before it is tried and its result written in the same transaction as the cursor.
 */
export class EndpointCursor {
  /** Positions read, oldest first, each with whether its result has been handed to the writer. */
  private readonly open: { position: number; recorded: boolean }[] = [];
  /** The last position written to the database. */
  private written: number;
  /** Read to here; more may follow when the last read filled its limit. */
  readPosition: number;
  more = true;
  fresh = true;

  constructor(position: number) {
    this.written = position;
    this.readPosition = position;
  }

  read(position: number): void {
    this.open.push({ position, recorded: false });
    this.readPosition = Math.max(this.readPosition, position);
  }

  /** Nothing wanted up to `horizon`. */
  readTo(horizon: number): void {
    this.readPosition = Math.max(this.readPosition, horizon);
  }

  /** Its result is in the batch being written. */
  record(position: number): void {
    const entry = this.open.find((o) => o.position === position);
    if (entry !== undefined) entry.recorded = true;
  }

  /** The position the batch being written may move the cursor to, or null when it stays. */
  advance(): number | null {
    while (this.open[0]?.recorded === true) this.open.shift();
    const safe = this.open.length === 0 ? this.readPosition : (this.open[0]?.position ?? this.readPosition) - 1;
    if (safe <= this.written) return null;
    this.written = safe;
    return safe;
  }

  get writtenPosition(): number {
    return this.written;
  }
}
