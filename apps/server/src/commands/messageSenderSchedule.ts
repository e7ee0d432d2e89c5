import { nextOpening } from '@parley/shared';
import { TimeZoneResolver } from '../messaging/timeZones.js';
import type { AccountSendContext, PreparedMessage } from './messageSenderPrepare.js';

export interface Schedule {
  /** The recipient's zone; null when the account's quiet hours are off. */
  timeZone: string | null;
  /** Now, or the next opening of the account's hours in the recipient's zone. */
  sendAfter: Date;
}

/**
 * When each message may go (quiet hours in the recipient's local time, DESIGN.md): the zone comes from the
 * number; recipients in one zone share one answer, so a campaign works it out once per zone.
 */
export async function scheduleMessages(
  context: AccountSendContext,
  prepared: readonly PreparedMessage[],
  now: Date,
): Promise<Schedule[]> {
  const { quietHours } = context;
  if (!quietHours.enabled) return prepared.map(() => ({ timeZone: null, sendAfter: now }));
  const resolver = await TimeZoneResolver.create();
  const zones = await resolver.zonesOf(
    prepared.map((p) => ({ number: p.recipient.contact.mobileNumber, country: p.recipient.contact.mobileCountry })),
    context.defaultCountry,
  );
  const openings = new Map<string, Date>();
  return zones.map((timeZone) => {
    let sendAfter = openings.get(timeZone);
    if (sendAfter === undefined) {
      sendAfter = nextOpening(now, timeZone, quietHours);
      openings.set(timeZone, sendAfter);
    }
    return { timeZone, sendAfter };
  });
}
