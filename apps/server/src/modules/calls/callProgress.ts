import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CallStatus } from '@parley/shared';
import type { NumberCarrierRef } from '../carriers/index.js';
import { TwilioWebhookError, type TwilioParams } from '../carriers/index.js';
import type { Db } from '../../platform/db/client.js';
import { isUuid } from '../../platform/db/ids.js';
import { calls, phoneNumbers, type CallRow } from '../../platform/db/schema/index.js';
import { recordCall } from './callRecorder.js';

/** How a call Parley placed or answered went on (a carrier's status callback, the simulator's buttons). */
export interface CallProgress {
  status: CallStatus;
  durationSeconds: number;
  attributes?: Readonly<Record<string, string>>;
}

/** The calls Parley itself places or answers (click-to-call, forwarding): their progress comes back to it. */
const OWN_SOURCES = ['parley', 'twilio'] as const;

/**
 * A call of the account that Parley placed or answered, by its external id; with `connection`, only one
 * whose number is on that carrier connection (a signed webhook speaks for its own connection only).
 */
export async function findOwnCall(db: Db, accountId: string, externalId: string, connection?: NumberCarrierRef): Promise<CallRow | null> {
  if (!isUuid(accountId)) return null;
  const onConnection =
    connection === undefined
      ? sql`true`
      : sql`${phoneNumbers.carrier} = ${connection.carrier} and ${phoneNumbers.carrierSettingsId} is not distinct from ${connection.carrierSettingsId}::uuid`;
  const [row] = await db
    .select({ call: calls })
    .from(calls)
    .innerJoin(phoneNumbers, eq(phoneNumbers.id, calls.phoneNumberId))
    .where(and(eq(calls.accountId, accountId), inArray(calls.source, [...OWN_SOURCES]), eq(calls.externalId, externalId), onConnection));
  return row?.call ?? null;
}

/** Writes the progress into the call (callRecorder's rules: the longest duration, an ended call stays ended). */
export async function progressCall(db: Db, call: CallRow, progress: CallProgress): Promise<CallRow> {
  if (call.phoneNumberId === null) throw new Error(`call ${call.id} has no number`);
  const { call: updated } = await recordCall(db, {
    accountId: call.accountId,
    source: call.source,
    externalId: call.externalId,
    direction: call.direction,
    status: progress.status,
    startedAt: call.startedAt,
    durationSeconds: progress.durationSeconds,
    from: call.fromNumber,
    to: call.toNumber,
    phoneNumberId: call.phoneNumberId,
    ...(progress.attributes === undefined ? {} : { attributes: progress.attributes }),
  });
  return updated;
}

const single = (params: TwilioParams, name: string): string | null => {
  const value = params[name];
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined || one === '' ? null : one;
};

const seconds = (value: string | null): number => {
  const n = Number(value ?? '0');
  return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
};

/** A Dial's outcome (DialCallStatus): how the dialled leg (the contact, or the forwarding target) ended. */
function dialStatus(status: string): CallStatus {
  switch (status) {
    case 'completed':
    case 'answered':
      return 'answered';
    case 'no-answer':
    case 'canceled':
      return 'missed';
    case 'busy':
      return 'busy';
    case 'failed':
      return 'failed';
    default:
      throw new TwilioWebhookError(`Unknown DialCallStatus "${status}"`);
  }
}

/**
 * What a Twilio call webhook says of the call (docs/calls.md), or null when it changes nothing:
 * - a Dial action (DialCallStatus, DialCallDuration) tells how the dialled leg ended: that is the call's outcome;
 * - the placed call's status callback (CallStatus) matters only when the user's own phone never took the
 *   call (busy, no answer, failed, canceled): nobody was dialled, so the call failed; a completed call was
 *   already told by its Dial action.
 */
export function twilioCallProgress(params: TwilioParams): CallProgress | null {
  const dial = single(params, 'DialCallStatus');
  if (dial !== null) return { status: dialStatus(dial), durationSeconds: seconds(single(params, 'DialCallDuration')) };
  const status = single(params, 'CallStatus');
  if (status === null) throw new TwilioWebhookError('CallStatus is missing');
  switch (status) {
    case 'queued':
    case 'initiated':
    case 'ringing':
    case 'in-progress':
    case 'completed':
      return null;
    case 'busy':
    case 'no-answer':
    case 'failed':
    case 'canceled':
      return { status: 'failed', durationSeconds: 0, attributes: { reason: `Your phone did not take the call (${status})` } };
    default:
      throw new TwilioWebhookError(`Unknown CallStatus "${status}"`);
  }
}
