import { expect } from 'vitest';
import type { IntegrationHarness } from '../../test/integrationHarness.js';
import type { GoogleCalendarPeer, PeerAttendee, PeerEvent } from './googleCalendarPeer.js';

/** The OAuth dance as a browser makes it: start, the peer's consent page, the callback. Answers where the callback sent the browser. */
export async function connectGoogleCalendar(h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> {
  const start = await h.call('GET', `/v1/accounts/${accountId}/integrations/googlecalendar/oauth/start`, token);
  expect(start.statusCode, start.body).toBe(200);
  const consent = await fetch(start.json<{ data: { url: string } }>().data.url, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  if (tamper) back.searchParams.set('state', `${back.searchParams.get('state') ?? ''}x`);
  const callback = await h.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}

const hours = (at: Date, h: number): string => new Date(at.getTime() + h * 3_600_000).toISOString();

/** An event of the peer's calendar starting `startHours` after `at`, for half an hour. */
export function peerEvent(peer: GoogleCalendarPeer, calendarId: string, at: Date, startHours: number, fields: Partial<PeerEvent> & { attendees?: PeerAttendee[] } = {}): PeerEvent {
  const event: PeerEvent = {
    id: `ev${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`,
    status: 'confirmed',
    summary: 'Check-up',
    start: { dateTime: hours(at, startHours) },
    end: { dateTime: hours(at, startHours + 0.5) },
    attendees: [{ email: calendarId, responseStatus: 'accepted', self: true, organizer: true }],
    ...fields,
  };
  peer.events.set(calendarId, [...(peer.events.get(calendarId) ?? []), event]);
  return event;
}
