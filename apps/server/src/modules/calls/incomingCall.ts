import { sql } from 'drizzle-orm';
import type { NumberCarrierRef } from '../carriers/index.js';
import { queryRows, type Db } from '../../platform/db/client.js';
import type { CallRow } from '../../platform/db/schema/index.js';
import type { CallSource } from '@parley/shared';
import { recordCall } from './callRecorder.js';

/** What a caller hears when the number forwards nowhere (docs/calls.md). */
export const NO_FORWARD_SPOKEN = 'Sorry, nobody can take your call right now. Please send us a text message instead.';

export interface IncomingCall {
  /** The carrier's id of the call: the call's external id. */
  callId: string;
  from: string;
  to: string;
}

export type IncomingCallAnswer =
  /** The number forwards: dial `forwardTo`; the call is recorded in progress until the dial's outcome. */
  | { kind: 'forward'; call: CallRow; forwardTo: string }
  /** The number forwards nowhere: the caller hears a short message; the call is recorded missed. */
  | { kind: 'missed'; call: CallRow }
  /** No active number of this connection: nothing is recorded. */
  | { kind: 'unknownNumber' };

interface CalledNumber extends Record<string, unknown> {
  id: string;
  account_id: string;
  forward_to: string | null;
}

/** The active number of an active account a call was placed to, on the connection it arrived on. */
async function calledNumber(db: Db, source: NumberCarrierRef, to: string): Promise<CalledNumber | null> {
  const candidates = to.startsWith('+') ? [to] : [to, `+${to}`];
  const [row] = await queryRows<CalledNumber>(
    db,
    sql`select p.id, p.account_id, p.forward_to from phone_numbers p join accounts a on a.id = p.account_id
         where p.number in (${sql.join(candidates.map((c) => sql`${c}`), sql`, `)}) and p.status = 'active' and a.status = 'active'
           and p.carrier = ${source.carrier} and p.carrier_settings_id is not distinct from ${source.carrierSettingsId}::uuid
         limit 1`,
  );
  return row ?? null;
}

/**
 * A call to one of the account's numbers (docs/calls.md, "Forwarding"): with `forwardTo` set, the call is
 * forwarded there and recorded in the caller's conversation, in progress until the forwarded leg ends;
 * without, it is recorded missed. A repeated webhook of the same call keeps one row.
 */
export async function answerIncomingCall(db: Db, source: NumberCarrierRef, callSource: CallSource, incoming: IncomingCall): Promise<IncomingCallAnswer> {
  const number = await calledNumber(db, source, incoming.to);
  if (number === null) return { kind: 'unknownNumber' };
  const forwardTo = number.forward_to;
  const { call } = await recordCall(db, {
    accountId: number.account_id,
    source: callSource,
    externalId: incoming.callId,
    direction: 'inbound',
    status: forwardTo === null ? 'missed' : 'inProgress',
    startedAt: new Date(),
    durationSeconds: 0,
    from: incoming.from,
    to: incoming.to,
    phoneNumberId: number.id,
    ...(forwardTo === null ? {} : { attributes: { forwardedTo: forwardTo } }),
  });
  return forwardTo === null ? { kind: 'missed', call } : { kind: 'forward', call, forwardTo };
}
