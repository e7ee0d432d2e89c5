import { connectThroughOAuth, type IntegrationHarness } from '../../test/integrationHarness.js';
import type { GoogleCalendarPeer, PeerAttendee, PeerEvent } from './googleCalendarPeer.js';

/** The OAuth dance through the peer (connectThroughOAuth). */
export const connectGoogleCalendar = (h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> =>
  connectThroughOAuth(h, 'googlecalendar', accountId, token, tamper);

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
