import { z } from 'zod';
import type { CallStatus } from '@parley/shared';
import type { ProviderCall } from '../connector.js';

/*
 * AirCall's webhook event (docs/integrations.md, "AirCall"): `{ resource, event, timestamp, token, data }`, the
 * call in `data` as the API's call object writes it. Parley's call (docs/calls.md) is made of it: a voicemail
 * (event call.voicemail_left, or a voicemail URL) is a voicemail; an ended call with `answered_at` was answered,
 * without it missed; a call still ringing or talking is in progress, and a later event says how it ended.
 */

const idOf = z.union([z.string(), z.number()]).transform(String);
const text = z.string().nullish().transform((v) => v ?? '');
const unixTime = z.number().nullish();

export const aircallCallSchema = z.object({
  id: idOf,
  direction: z.enum(['inbound', 'outbound']),
  status: text,
  started_at: unixTime,
  answered_at: unixTime,
  ended_at: unixTime,
  duration: z.number().nullish(),
  raw_digits: text,
  voicemail: z.string().nullish(),
  recording: z.string().nullish(),
  missed_call_reason: text,
  number: z.object({ id: idOf, digits: text, name: text }).nullish(),
  user: z.object({ name: text }).nullish(),
  contact: z.object({ first_name: text, last_name: text }).nullish(),
});
export type AirCallCall = z.infer<typeof aircallCallSchema>;

export const aircallEventSchema = z.object({
  resource: text,
  event: z.string(),
  token: z.string().nullish(),
  data: z.unknown(),
});
export type AirCallEvent = z.infer<typeof aircallEventSchema>;

/** The events that say something of a call: the others are answered and left alone. */
export const AIRCALL_CALL_EVENTS: readonly string[] = ['call.created', 'call.ringing_on_agent', 'call.answered', 'call.hungup', 'call.ended', 'call.voicemail_left'];

const ENDED_EVENTS: readonly string[] = ['call.hungup', 'call.ended'];

function statusOf(event: string, c: AirCallCall): CallStatus {
  if (event === 'call.voicemail_left' || (c.voicemail ?? '') !== '') return 'voicemail';
  if (ENDED_EVENTS.includes(event) || c.status === 'done') return c.answered_at == null ? 'missed' : 'answered';
  return 'inProgress';
}

/** "Ada Lovelace" from AirCall's contact, when it has one. */
const nameOf = (c: AirCallCall): { firstName: string; lastName: string } => ({ firstName: c.contact?.first_name ?? '', lastName: c.contact?.last_name ?? '' });

function attributesOf(c: AirCallCall): Record<string, string> {
  const all: Record<string, string> = { line: c.number?.name ?? '', answeredBy: c.user?.name ?? '', missedReason: c.missed_call_reason };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v.trim() !== ''));
}

/** The call of an event, or null when it has no caller's number (a hidden caller id cannot be a contact). */
export function providerCallOf(event: string, c: AirCallCall, now: Date = new Date()): ProviderCall | null {
  const ours = c.number?.digits ?? '';
  if (c.raw_digits.trim() === '' || ours.trim() === '' || !/\d/.test(c.raw_digits)) return null;
  const outbound = c.direction === 'outbound';
  const started = c.started_at == null ? now : new Date(c.started_at * 1000);
  return {
    externalId: c.id,
    direction: c.direction,
    status: statusOf(event, c),
    startedAt: started.toISOString(),
    durationSeconds: Math.max(0, Math.round(c.duration ?? 0)),
    from: outbound ? ours : c.raw_digits,
    to: outbound ? c.raw_digits : ours,
    recordingUrl: c.voicemail ?? c.recording ?? null,
    attributes: attributesOf(c),
    contactName: nameOf(c),
  };
}

/** AirCall's digits ("+33 1 76 36 06 95") as E.164, or '' when they are not a number. */
export function e164Of(digits: string): string {
  const only = digits.replace(/[^\d]/g, '');
  return digits.trim().startsWith('+') && only.length >= 8 && only.length <= 15 ? `+${only}` : '';
}
