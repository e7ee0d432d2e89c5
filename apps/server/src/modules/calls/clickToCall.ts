import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CALL_DESTINATION_INVALID_MESSAGE,
  CALL_NO_MOBILE_MESSAGE,
  CALL_NO_VOICE_MESSAGE,
  CALL_NOT_PLACED_MESSAGE,
  CALL_NUMBER_INACTIVE_MESSAGE,
  normaliseContactMobile,
} from '@parley/shared';
import { CarrierUnavailableError, type Carrier, type CarrierRegistry } from '../carriers/index.js';
import { findUserById } from '../identity/index.js';
import type { Db } from '../../platform/db/client.js';
import { phoneNumbers, type CallRow, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { recordCall } from './callRecorder.js';

export interface ClickToCall {
  accountId: string;
  /** The signed-in user: their profile's mobile is rung first. */
  userId: string;
  /** The contact's number, as typed (E.164 or the account number's national format). */
  destination: string;
  /** The account's number the call comes from. */
  phoneNumberId: string;
}

/** Whose phone rings first: the user's profile mobile, E.164. */
async function mobileOf(db: Db, userId: string): Promise<string> {
  const user = await findUserById(db, userId);
  const mobile = user?.mobileNumber ?? null;
  if (mobile === null || mobile === '') throw new AppError(422, 'bad_request', CALL_NO_MOBILE_MESSAGE);
  const parsed = normaliseContactMobile(mobile, user?.mobileCountry ?? null, null);
  if (!parsed.valid) throw new AppError(422, 'bad_request', CALL_NO_MOBILE_MESSAGE);
  return parsed.number;
}

async function activeNumber(db: Db, accountId: string, id: string): Promise<PhoneNumberRow> {
  const [row] = await db.select().from(phoneNumbers).where(and(eq(phoneNumbers.accountId, accountId), eq(phoneNumbers.id, id)));
  if (row === undefined || row.status === 'released') throw notFound('The phone number');
  if (row.status !== 'active') throw new AppError(422, 'bad_request', CALL_NUMBER_INACTIVE_MESSAGE);
  return row;
}

/** The carrier's bridged call, or 422 when the number's carrier has no voice (SMPP) or is not configured. */
async function voiceOf(carriers: CarrierRegistry, number: PhoneNumberRow): Promise<Required<Pick<Carrier, 'placeBridgedCall'>>['placeBridgedCall']> {
  let carrier: Carrier;
  try {
    carrier = await carriers.forNumber({ carrier: number.carrier, carrierSettingsId: number.carrierSettingsId });
  } catch (error) {
    if (error instanceof CarrierUnavailableError) throw new AppError(422, 'bad_request', CALL_NO_VOICE_MESSAGE);
    throw error;
  }
  const place = carrier.placeBridgedCall?.bind(carrier);
  if (place === undefined) throw new AppError(422, 'bad_request', CALL_NO_VOICE_MESSAGE);
  return place;
}

/**
 * Click-to-call (docs/calls.md): checks the number, its carrier's voice, the user's mobile and the
 * destination; records the call in the contact's conversation (outbound, in progress, source `parley`,
 * its external id our own); then asks the carrier to ring the user and bridge them to the contact. A call
 * the carrier refuses is recorded `failed` and answered 502. Status callbacks move the call on (callProgress.ts).
 */
export async function placeClickToCall(db: Db, carriers: CarrierRegistry, input: ClickToCall): Promise<CallRow> {
  const number = await activeNumber(db, input.accountId, input.phoneNumberId);
  const place = await voiceOf(carriers, number);
  const agent = await mobileOf(db, input.userId);
  const destination = normaliseContactMobile(input.destination, null, number.country);
  if (!destination.valid || destination.number === number.number) throw new AppError(400, 'validation_failed', CALL_DESTINATION_INVALID_MESSAGE);

  const callId = uuidv7();
  const report = {
    accountId: input.accountId,
    source: 'parley' as const,
    externalId: callId,
    direction: 'outbound' as const,
    startedAt: new Date(),
    durationSeconds: 0,
    from: number.number,
    to: destination.number,
    phoneNumberId: number.id,
  };
  const { call } = await recordCall(db, { ...report, status: 'inProgress', attributes: { placedBy: input.userId } });
  try {
    const placed = await place({ callId, accountId: input.accountId, from: number.number, agent, destination: destination.number });
    const { call: updated } = await recordCall(db, { ...report, startedAt: call.startedAt, status: 'inProgress', attributes: { carrierCallId: placed.carrierCallId } });
    return updated;
  } catch (error) {
    await recordCall(db, { ...report, startedAt: call.startedAt, status: 'failed', attributes: { error: error instanceof Error ? error.message : String(error) } });
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'internal_error', CALL_NOT_PLACED_MESSAGE);
  }
}
