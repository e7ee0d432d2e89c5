import { and, asc, eq, sql } from 'drizzle-orm';
import { normaliseContactMobile } from '@parley/shared';
import { queryRows, type Queryable } from '../../../platform/db/client.js';
import { phoneNumbers, simulatorMessages, simulatorPending, type SimulatorMessageRow } from '../../../platform/db/schema/index.js';
import { bulkUuidV7 } from '../../contacts/index.js';
import { simulatorPictures, simulatorPictureUrl } from './media.js';

/*
 * The virtual phones' side of the simulated network. A phone is each number the business texted or that
 * texts the business; it is not stored on its own, only as the phone_number of simulator_messages rows.
 * An account sees the rows exchanged with its own numbers while it held them (from the number's creation,
 * until its release), voice calls from or to them included (simulator/calls.ts), and the verification calls
 * placed to its own numbers: never another account's.
 */

/** Told when a row goes on the simulator's owed list, so an idle loop looks at once (simulatorCarrier.ts). */
export const SIMULATOR_PENDING_CHANNEL = 'parley_simulator_pending';

/** Wakes the simulator's loops, in every process, when the statement's transaction commits. */
export async function announcePending(q: Queryable): Promise<void> {
  await q.execute(sql`select pg_notify(${SIMULATOR_PENDING_CHANNEL}, '')`);
}

/** Whom a verification call seems to come from when the caller gives no number. */
export const VERIFICATION_CALLER = 'Parley';

/** A phone number in E.164 (a leading + is optional), or null when it is not a valid number. */
export function parsePhoneParam(value: string): string | null {
  const given = value.trim();
  const withPlus = given.startsWith('+') ? given : `+${given}`;
  if (!/^\+[0-9]{6,15}$/.test(withPlus)) return null;
  const parsed = normaliseContactMobile(withPlus, null, null);
  return parsed.valid ? parsed.number : null;
}

export interface PhoneTextInput {
  /** The virtual phone, E.164. */
  phone: string;
  /** The business number it texts, E.164. */
  to: string;
  body: string;
  /** Attach one of the sample pictures (the next one in turn for this phone). */
  picture: boolean;
  /** PUBLIC_URL, for the picture's absolute address. */
  publicUrl: string;
  now?: Date;
}

/**
 * A virtual phone texts a business number (a reply, STOP, a picture): an `mo` row due now, which the
 * simulator's loop hands to the engine as an inbound message.
 */
export async function sendFromPhone(q: Queryable, input: PhoneTextInput): Promise<SimulatorMessageRow> {
  let media: { url: string; contentType: string }[] = [];
  if (input.picture) {
    const [counted] = await queryRows<{ n: number }>(
      q,
      sql`select count(*)::int as n from simulator_messages
          where phone_number = ${input.phone} and kind = 'mo' and media <> '[]'::jsonb`,
    );
    const name = simulatorPictures[(counted?.n ?? 0) % simulatorPictures.length] ?? simulatorPictures[0];
    media = [{ url: simulatorPictureUrl(input.publicUrl, name), contentType: 'image/png' }];
  }
  const now = input.now ?? new Date();
  // The row and its place on the loop's list together, or neither.
  return q.transaction(async (tx) => {
    const [row] = await tx
      .insert(simulatorMessages)
      .values({
        id: bulkUuidV7(now.getTime()),
        kind: 'mo',
        businessNumber: input.to,
        phoneNumber: input.phone,
        body: input.body,
        media,
        status: 'pending',
        dueAt: now,
      })
      .returning();
    if (!row) throw new Error('the simulated message was not written');
    await tx.insert(simulatorPending).values({ id: row.id, dueAt: now });
    await announcePending(tx);
    return row;
  });
}

/** The verification call a virtual phone takes: its text reads the code out, digit by digit. */
export async function recordVerificationCall(
  q: Queryable,
  call: { from: string | null; to: string; code: string },
  now: Date = new Date(),
): Promise<SimulatorMessageRow> {
  const digits = call.code.split('').join(' ');
  const [row] = await q
    .insert(simulatorMessages)
    .values({
      id: bulkUuidV7(now.getTime()),
      kind: 'call',
      businessNumber: call.from ?? VERIFICATION_CALLER,
      phoneNumber: call.to,
      body: `Your Parley verification code is ${digits}`,
      status: 'placed',
      doneAt: now,
    })
    .returning();
  if (!row) throw new Error('the simulated call was not written');
  return row;
}

/** The account's active numbers on the simulator: the ones a virtual phone may text. */
export async function activeSimulatorNumbers(q: Queryable, accountId: string): Promise<{ number: string; name: string }[]> {
  return q
    .select({ number: phoneNumbers.number, name: phoneNumbers.name })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.status, 'active'), eq(phoneNumbers.carrier, 'simulator')))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.number));
}

/** The rows of the simulated network the account may see (see the top of this file), as a CTE `mine`. */
const accountRows = (accountId: string) => sql`
  nums as (
    select number, created_at, case when status = 'released' then updated_at end as released_at
    from phone_numbers where account_id = ${accountId}::uuid
  ),
  mine as (
    select sm.* from simulator_messages sm join nums n on sm.business_number = n.number
    where (sm.kind <> 'call' or sm.ref is not null) and sm.created_at >= n.created_at and (n.released_at is null or sm.created_at <= n.released_at)
    union all
    select sm.* from simulator_messages sm join nums n on sm.phone_number = n.number
    where sm.kind = 'call' and sm.ref is null and sm.created_at >= n.created_at and (n.released_at is null or sm.created_at <= n.released_at)
  )`;

export interface PhoneSummary {
  number: string;
  businessNumbers: string[];
  received: number;
  sent: number;
  calls: number;
  lastActivityAt: Date;
  /** The last change to the thread: a new row, or a row done (a receipt reported, a message handed). */
  changedAt: Date;
}

/** The phones that exchanged messages or calls with the account's numbers, newest activity first. */
export async function listPhones(
  q: Queryable,
  accountId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: PhoneSummary[]; totalCount: number }> {
  const rows = await queryRows<{
    phone_number: string;
    business_numbers: string[] | null;
    received: number;
    sent: number;
    calls: number;
    last_at: number;
    changed_at: number;
    total: number;
  }>(
    q,
    sql`with ${accountRows(accountId)},
      pairs as (
        select phone_number, business_number, kind = 'call' as is_call, max(created_at) as last_at,
               max(greatest(created_at, done_at)) as changed_at,
               count(*) filter (where kind = 'mt')::int as received,
               count(*) filter (where kind = 'mo')::int as sent,
               count(*) filter (where kind = 'call')::int as calls
        from mine group by phone_number, business_number, kind = 'call'
      )
      select phone_number,
             array_agg(business_number order by last_at desc) filter (where not is_call) as business_numbers,
             sum(received)::int as received, sum(sent)::int as sent, sum(calls)::int as calls,
             (extract(epoch from max(last_at)) * 1000)::float8 as last_at,
             (extract(epoch from max(changed_at)) * 1000)::float8 as changed_at,
             (count(*) over ())::int as total
      from pairs group by phone_number
      order by max(last_at) desc, phone_number
      limit ${page.limit} offset ${page.offset}`,
  );
  const totalCount = rows[0]?.total ?? (page.offset > 0 ? await countPhones(q, accountId) : 0);
  return {
    totalCount,
    rows: rows.map((r) => ({
      number: r.phone_number,
      businessNumbers: r.business_numbers ?? [],
      received: r.received,
      sent: r.sent,
      calls: r.calls,
      lastActivityAt: new Date(r.last_at),
      changedAt: new Date(r.changed_at),
    })),
  };
}

async function countPhones(q: Queryable, accountId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(q, sql`with ${accountRows(accountId)} select count(distinct phone_number)::int as n from mine`);
  return row?.n ?? 0;
}

/** The latest `limit` items between a phone and the account's numbers, oldest first, and how many there are. */
export async function phoneThread(
  q: Queryable,
  accountId: string,
  phone: string,
  limit: number,
): Promise<{ rows: SimulatorMessageRow[]; totalCount: number }> {
  const rows = await queryRows<{
    id: string;
    ref: string | null;
    kind: SimulatorMessageRow['kind'];
    business_number: string;
    phone_number: string;
    body: string;
    media: SimulatorMessageRow['media'];
    status: string;
    error_code: string | null;
    error_text: string | null;
    sequence: number;
    due_at: number | null;
    done_at: number | null;
    created_ms: number;
    total: number;
  }>(
    q,
    sql`with ${accountRows(accountId)}
      select id, ref, kind, business_number, phone_number, body, media, status, error_code, error_text, sequence,
             (extract(epoch from due_at) * 1000)::float8 as due_at,
             (extract(epoch from done_at) * 1000)::float8 as done_at,
             (extract(epoch from created_at) * 1000)::float8 as created_ms,
             (count(*) over ())::int as total
      from mine where phone_number = ${phone}
      order by created_at desc, sequence desc, id desc
      limit ${limit}`,
  );
  return {
    totalCount: rows[0]?.total ?? 0,
    rows: rows.reverse().map((r) => ({
      id: r.id,
      ref: r.ref,
      kind: r.kind,
      businessNumber: r.business_number,
      phoneNumber: r.phone_number,
      body: r.body,
      media: r.media,
      status: r.status,
      errorCode: r.error_code,
      errorText: r.error_text,
      sequence: r.sequence,
      dueAt: r.due_at === null ? null : new Date(r.due_at),
      doneAt: r.done_at === null ? null : new Date(r.done_at),
      createdAt: new Date(r.created_ms),
    })),
  };
}
