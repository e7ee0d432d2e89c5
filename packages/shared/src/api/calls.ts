import { z } from 'zod';
import { listQuerySchema, listResponse } from './pagination.js';

/*
 * Calls in a contact's conversation (docs/calls.md): recorded from a phone system's or call tracker's
 * webhook (CallRail, AirCall, Cradle, Twilio, Parley's own click-to-call) and shown in the inbox as event
 * lines between the messages.
 */

export const callDirections = ['inbound', 'outbound'] as const;
export type CallDirection = (typeof callDirections)[number];

/**
 * What became of a call, a closed set every source maps onto: answered; missed (rang out, nobody took it);
 * voicemail (missed, and the caller left a message); busy; failed (did not connect); inProgress (ringing or
 * talking: a later webhook of the call says how it ended).
 */
export const callStatuses = ['inProgress', 'answered', 'missed', 'voicemail', 'busy', 'failed'] as const;
export type CallStatus = (typeof callStatuses)[number];

/** Statuses that ask for a missed-call text-back. */
export const unansweredCallStatuses: readonly CallStatus[] = ['missed', 'voicemail', 'busy'];

export const callSources = ['callrail', 'aircall', 'cradle', 'twilio', 'parley'] as const;
export type CallSource = (typeof callSources)[number];

export const callSchema = z
  .object({
    id: z.uuid(),
    conversation: z.object({ id: z.uuid() }),
    contact: z.object({ id: z.uuid() }),
    /** The account's number the call is filed under (the conversation's), when it has one. */
    phoneNumber: z.object({ id: z.uuid() }).optional(),
    direction: z.enum(callDirections),
    status: z.enum(callStatuses),
    source: z.enum(callSources),
    /** Who called and who was called, E.164. */
    from: z.string(),
    to: z.string(),
    startedAt: z.string(),
    durationSeconds: z.number().int(),
    /** The recording or the voicemail, where the source keeps one. */
    recordingUrl: z.string().optional(),
    /** What the source tells about the call (tracking source, campaign, keywords ...). */
    attributes: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Call' });
export type Call = z.infer<typeof callSchema>;

export const callListSchema = listResponse(callSchema).meta({ id: 'CallList' });
export type CallList = z.infer<typeof callListSchema>;

/** GET .../conversations/{id}/calls: the newest first, paged as every list. */
export const callListQuerySchema = listQuerySchema;

/** The outbox event of a call written or changed: the inbox shows it live. */
export const CALL_RECORDED_EVENT = 'callRecorded';
export interface CallRecordedEventData {
  call: Call;
  conversation: { id: string };
}

/** The line the inbox shows for a call: 'Missed call', 'Call answered · 3 min 12 s', 'Voicemail' ... */
export function callLine(call: Pick<Call, 'status' | 'direction' | 'durationSeconds'>): string {
  const way = call.direction === 'outbound' ? 'Outgoing call' : 'Call';
  switch (call.status) {
    case 'answered':
      return `${call.direction === 'outbound' ? 'Outgoing call answered' : 'Call answered'} · ${callDuration(call.durationSeconds)}`;
    case 'missed':
      return call.direction === 'outbound' ? 'Outgoing call not answered' : 'Missed call';
    case 'voicemail':
      return call.durationSeconds > 0 ? `Voicemail · ${callDuration(call.durationSeconds)}` : 'Voicemail';
    case 'busy':
      return `${way}: busy`;
    case 'failed':
      return `${way} failed`;
    case 'inProgress':
      return `${way} in progress`;
  }
}

/** '45 s', '3 min 12 s', '1 h 2 min'. */
export function callDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${String(s)} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return s % 60 === 0 ? `${String(minutes)} min` : `${String(minutes)} min ${String(s % 60)} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${String(hours)} h` : `${String(hours)} h ${String(minutes % 60)} min`;
}

/**
 * POST /v1/accounts/{acc}/calls, click-to-call (docs/calls.md): Parley rings the signed-in user's own mobile
 * (their profile's) from the account's number `from.id` and, when they answer, connects them to `destination`.
 */
export const placeCallSchema = z
  .object({
    destination: z.string({ message: 'Required' }).trim().min(1, 'Required').max(32, 'Must be a phone number'),
    from: z.object({ id: z.uuid({ message: 'Required' }) }, { message: 'Required' }),
  })
  .meta({ id: 'PlaceCall' });
export type PlaceCall = z.infer<typeof placeCallSchema>;

export const callRecordSchema = z.object({ data: callSchema }).meta({ id: 'CallRecord' });
export type CallRecord = z.infer<typeof callRecordSchema>;

export const CALL_NO_MOBILE_MESSAGE = 'Add your mobile number to your profile to place calls: Parley calls you there first.';
export const CALL_NO_VOICE_MESSAGE = "This number's carrier cannot place calls. Choose a number of a carrier with voice.";
export const CALL_DESTINATION_INVALID_MESSAGE = 'destination: Not a valid phone number';
export const CALL_NUMBER_INACTIVE_MESSAGE = 'This number is not active, so it cannot place calls.';
export const CALL_NOT_PLACED_MESSAGE = 'The call could not be placed. Try again later.';
export const CALL_API_CLIENT_MESSAGE = 'API credentials have no phone to ring: a signed-in user places calls.';
export const CALL_PLACED_MESSAGE = 'Calling your phone…';
