import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../../platform/db/client.js';
import { simulatorMessages, type SimulatorMessageRow } from '../../../platform/db/schema/index.js';
import { bulkUuidV7 } from '../../contacts/index.js';
import type { BridgedCall } from '../carrier.js';

/*
 * Voice calls on the simulated network (docs/calls.md, "On the simulator"): a call is two `call` rows of
 * simulator_messages, one per leg, their ref `<call id>:caller` and `<call id>:callee`. The caller's leg
 * (the user's own phone for click-to-call, the calling virtual phone for a forwarded call) is connected at
 * once; the callee's leg rings until someone presses Answer or Decline on its virtual phone, and Hang up
 * ends the call on either. Nothing answers by itself: the simulator page is the callee's hand.
 */

export type SimulatorCallLeg = 'caller' | 'callee';
export type SimulatorCallAction = 'answer' | 'decline' | 'hangUp';

/** Statuses of a voice leg: ringing, talking (connected), ended, declined. */
export const CALL_LEG_STATUSES = ['ringing', 'talking', 'ended', 'declined'] as const;

const legRef = (callId: string, leg: SimulatorCallLeg): string => `${callId}:${leg}`;

/** The call id and leg of a voice row, or null for a verification call (no ref). */
export function callLegOf(row: Pick<SimulatorMessageRow, 'kind' | 'ref'>): { callId: string; leg: SimulatorCallLeg } | null {
  if (row.kind !== 'call' || row.ref === null) return null;
  const match = /^(.+):(caller|callee)$/.exec(row.ref);
  if (!match?.[1] || (match[2] !== 'caller' && match[2] !== 'callee')) return null;
  return { callId: match[1], leg: match[2] };
}

interface TwoLegs {
  callId: string;
  business: string;
  caller: { phone: string; body: string };
  /** Null: nobody is dialled; the caller's leg ends at once. */
  callee: { phone: string; body: string } | null;
}

/** Writes the legs; answers the caller's leg. */
async function writeLegs(q: Queryable, legs: TwoLegs, now: Date): Promise<SimulatorMessageRow> {
  const row = (leg: SimulatorCallLeg, phone: string, body: string, status: string) => ({
    id: bulkUuidV7(now.getTime()),
    ref: legRef(legs.callId, leg),
    kind: 'call' as const,
    businessNumber: legs.business,
    phoneNumber: phone,
    body,
    status,
    doneAt: now,
  });
  const rows = [row('caller', legs.caller.phone, legs.caller.body, legs.callee === null ? 'ended' : 'talking')];
  if (legs.callee !== null) rows.push(row('callee', legs.callee.phone, legs.callee.body, 'ringing'));
  const written = await q.insert(simulatorMessages).values(rows).returning();
  const caller = written.find((r) => r.ref === legRef(legs.callId, 'caller'));
  if (caller === undefined) throw new Error('the simulated call was not written');
  return caller;
}

/** Click-to-call: the user's phone is connected (they asked for the call), the contact's phone rings. */
export async function ringBridgedCall(q: Queryable, call: BridgedCall, now: Date = new Date()): Promise<void> {
  await writeLegs(
    q,
    {
      callId: call.callId,
      business: call.from,
      caller: { phone: call.agent, body: `Parley is connecting you to ${call.destination}` },
      callee: { phone: call.destination, body: `Incoming call from ${call.from}` },
    },
    now,
  );
}

/** A virtual phone calls an account's number: forwarded to `forwardTo` (which rings), or nobody answers. */
export function ringForwardedCall(
  q: Queryable,
  call: { callId: string; caller: string; business: string; forwardTo: string | null },
  now: Date = new Date(),
): Promise<SimulatorMessageRow> {
  return writeLegs(
    q,
    {
      callId: call.callId,
      business: call.business,
      caller: { phone: call.caller, body: call.forwardTo === null ? `Called ${call.business}: nobody could take the call` : `Calling ${call.business}` },
      callee: call.forwardTo === null ? null : { phone: call.forwardTo, body: `Forwarded call from ${call.caller}` },
    },
    now,
  );
}

/** What a press of a button did to the call: its outcome for the call record, or null for none yet. */
export interface SimulatorCallOutcome {
  callId: string;
  /** answered: talked for durationSeconds; missed: declined or hung up before anyone answered. */
  outcome: { status: 'answered' | 'missed'; durationSeconds: number } | null;
}

const legsOf = (q: Queryable, callId: string) =>
  q
    .select()
    .from(simulatorMessages)
    .where(and(eq(simulatorMessages.kind, 'call'), inArray(simulatorMessages.ref, [legRef(callId, 'caller'), legRef(callId, 'callee')])))
    .for('update');

/**
 * Answer or Decline on the ringing callee's phone, Hang up on either phone while the call lasts. The legs'
 * rows change together; a press that does not fit the call's state (answering an ended call) changes nothing
 * and answers null. `done_at` of the callee's leg is when it was answered, so hanging up knows how long it lasted.
 */
export function actOnSimulatorCall(q: Queryable, row: SimulatorMessageRow, action: SimulatorCallAction, now: Date = new Date()): Promise<SimulatorCallOutcome | null> {
  const leg = callLegOf(row);
  if (leg === null) return Promise.resolve(null);
  return q.transaction(async (tx) => {
    const legs = await legsOf(tx, leg.callId);
    const callee = legs.find((l) => l.ref === legRef(leg.callId, 'callee'));
    if (callee === undefined) return null;
    const set = (status: string, ...refs: SimulatorCallLeg[]) =>
      tx
        .update(simulatorMessages)
        .set({ status, doneAt: now })
        .where(inArray(simulatorMessages.ref, refs.map((r) => legRef(leg.callId, r))));
    if (action === 'answer' && leg.leg === 'callee' && callee.status === 'ringing') {
      await set('talking', 'callee');
      return { callId: leg.callId, outcome: null };
    }
    if (action === 'decline' && leg.leg === 'callee' && callee.status === 'ringing') {
      await set('declined', 'callee');
      await set('ended', 'caller');
      return { callId: leg.callId, outcome: { status: 'missed', durationSeconds: 0 } };
    }
    if (action === 'hangUp' && (callee.status === 'ringing' || callee.status === 'talking')) {
      const talked = callee.status === 'talking';
      const answeredAt = callee.doneAt ?? now;
      await set(talked ? 'ended' : 'declined', 'callee');
      await set('ended', 'caller');
      const durationSeconds = talked ? Math.max(0, Math.round((now.getTime() - answeredAt.getTime()) / 1000)) : 0;
      return { callId: leg.callId, outcome: talked ? { status: 'answered', durationSeconds } : { status: 'missed', durationSeconds: 0 } };
    }
    return null;
  });
}

/** A voice row of the account's simulated network by id, for the buttons of the simulator page. */
export async function findSimulatorCallRow(q: Queryable, accountId: string, phone: string, id: string): Promise<SimulatorMessageRow | null> {
  const [row] = await q
    .select()
    .from(simulatorMessages)
    .where(
      and(
        eq(simulatorMessages.id, id),
        eq(simulatorMessages.kind, 'call'),
        eq(simulatorMessages.phoneNumber, phone),
        sql`${simulatorMessages.ref} is not null`,
        sql`exists (select 1 from phone_numbers p where p.account_id = ${accountId}::uuid and p.number = ${simulatorMessages.businessNumber} and p.status = 'active')`,
      ),
    );
  return row ?? null;
}
