/*
 * How an opt-in page sign-up is written on the list membership (list_members.consent_source, "where the
 * consent came from, with the address when known"). A sign-up waits for the person's reply; until then the
 * membership keeps its status (a new member is `subscribed`: on the list without a recorded consent) and
 * its source says who asked, from where and when:
 *
 *   optin page from 203.0.113.7 at 2026-05-01T10:00:00.000Z, awaiting reply
 *
 * The reply turns it `optedIn` (optInAt = the reply's time) and the source into
 *
 *   optin page from 203.0.113.7 at 2026-05-01T10:00:00.000Z, confirmed by reply YES
 */

export const OPT_IN_PAGE_SOURCE = 'optin page';
/** messages.event_type of the confirmation request an opt-in page sends. */
export const OPT_IN_REQUEST_EVENT_TYPE = 'optInRequest';
const AWAITING = ', awaiting reply';

/** The requester's address as it is kept: no spaces or commas (a forwarded-for list keeps its first). */
export function cleanAddress(ip: string): string {
  const first = ip.split(',')[0]?.trim() ?? '';
  const cleaned = first.replace(/[^0-9A-Za-z.:%[\]_-]/g, '').slice(0, 64);
  return cleaned === '' ? 'unknown address' : cleaned;
}

export function pendingOptInSource(ip: string, at: Date): string {
  return `${OPT_IN_PAGE_SOURCE} from ${cleanAddress(ip)} at ${at.toISOString()}${AWAITING}`;
}

/** A LIKE pattern matching the source of a sign-up still waiting for its reply. */
export const PENDING_OPT_IN_SOURCE_PATTERN = `${OPT_IN_PAGE_SOURCE} from %${AWAITING}`;

export function isPendingOptInSource(source: string | null): source is string {
  return source !== null && source.startsWith(`${OPT_IN_PAGE_SOURCE} from `) && source.endsWith(AWAITING);
}

/** The source once the person confirmed with `keyword`: who asked, from where and when stays. */
export function confirmedOptInSource(pending: string, keyword: string): string {
  const base = isPendingOptInSource(pending) ? pending.slice(0, -AWAITING.length) : pending;
  return `${base}, confirmed by reply ${keyword}`;
}
