import type { CallStatus } from '@parley/shared';
import type { ProviderCall, ProviderContact } from '../connector.js';
import type { CallRailCall } from './callRailApi.js';

/*
 * CallRail's call (API v3's call object, and the post-call webhook's body, which carries the same fields) as
 * Parley's call (docs/calls.md): `voicemail` makes it a voicemail, `answered` an answered call, anything else
 * a missed one; the tracking data go to the call's attributes.
 */

const statusOf = (c: CallRailCall): CallStatus => (c.voicemail === true ? 'voicemail' : c.answered === true ? 'answered' : 'missed');

const secondsOf = (duration: CallRailCall['duration']): number => {
  const n = typeof duration === 'string' ? Number.parseInt(duration, 10) : (duration ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** "Ada Lovelace" as first and last name; CallRail's caller-id names are often in capitals, kept as they are. */
export function namesOf(name: string): { firstName: string; lastName: string } {
  const trimmed = name.trim();
  const space = trimmed.indexOf(' ');
  return space === -1 ? { firstName: trimmed, lastName: '' } : { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1).trim() };
}

function attributesOf(c: CallRailCall): Record<string, string> {
  const all: Record<string, string> = {
    source: c.source,
    campaign: c.campaign,
    medium: c.medium,
    keywords: c.keywords,
    trackingNumber: c.tracking_phone_number,
    company: c.company_name,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v.trim() !== ''));
}

/** The call, or null when CallRail sent one without an id or without the customer's number (a blocked caller id). */
export function providerCallOf(c: CallRailCall): ProviderCall | null {
  const externalId = c.id ?? c.resource_id ?? '';
  if (externalId === '' || c.customer_phone_number.trim() === '') return null;
  const outbound = c.direction === 'outbound';
  const ours = c.tracking_phone_number !== '' ? c.tracking_phone_number : c.business_phone_number;
  return {
    externalId,
    direction: outbound ? 'outbound' : 'inbound',
    status: statusOf(c),
    startedAt: c.start_time,
    durationSeconds: secondsOf(c.duration),
    from: outbound ? ours : c.customer_phone_number,
    to: outbound ? c.customer_phone_number : ours,
    recordingUrl: c.recording === '' ? null : c.recording,
    attributes: attributesOf(c),
    contactName: namesOf(c.customer_name),
  };
}

/** The callers of a page of calls, each once, as contacts the framework matches by their number. */
export function callersOf(calls: readonly CallRailCall[]): ProviderContact[] {
  const byNumber = new Map<string, ProviderContact>();
  for (const c of calls) {
    if (c.customer_phone_number === '' || byNumber.has(c.customer_phone_number)) continue;
    const { firstName, lastName } = namesOf(c.customer_name);
    byNumber.set(c.customer_phone_number, { externalId: c.customer_phone_number, phone: c.customer_phone_number, firstName, lastName, email: '' });
  }
  return [...byNumber.values()];
}
