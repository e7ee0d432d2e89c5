import { and, eq } from 'drizzle-orm';
import { isWithinHours, localTimeOfDay, nextOpening, type AcceptableHoursStatus } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accounts, contacts } from '../../platform/db/schema/index.js';
import { notFound } from '../../platform/errors.js';
import { TimeZoneResolver } from './timeZones.js';
import { wroteRecently } from './messageSenderSchedule.js';

/**
 * Whether a one-to-one message to the contact would go now (docs/messaging.md, "Quiet hours"): the
 * contact's zone and local time, whether the account's acceptable hours are open there, and whether the
 * contact wrote within the last 24 hours (then an answer goes at once). 404 for a contact of another account.
 */
export async function acceptableHoursStatus(q: Queryable, accountId: string, contactId: string, now: Date = new Date()): Promise<AcceptableHoursStatus> {
  const [row] = await q
    .select({
      mobileNumber: contacts.mobileNumber,
      mobileCountry: contacts.mobileCountry,
      defaultCountry: accounts.defaultCountry,
      enabled: accounts.quietHoursEnabled,
      start: accounts.quietHoursStart,
      end: accounts.quietHoursEnd,
    })
    .from(contacts)
    .innerJoin(accounts, eq(accounts.id, contacts.accountId))
    .where(and(eq(contacts.accountId, accountId), eq(contacts.id, contactId)))
    .limit(1);
  if (row === undefined) throw notFound('The contact');
  const resolver = await TimeZoneResolver.create();
  const [timeZone = 'UTC'] = await resolver.zonesOf([{ number: row.mobileNumber, country: row.mobileCountry }], row.defaultCountry);
  const window = { start: row.start, end: row.end };
  const open = !row.enabled || isWithinHours(now, timeZone, window);
  const opensAt = open ? null : nextOpening(now, timeZone, window);
  return {
    applies: row.enabled,
    timeZone,
    localTime: localTimeOfDay(now, timeZone),
    open,
    recentlyWrote: await wroteRecently(q, accountId, contactId, now),
    opensAt: opensAt?.toISOString() ?? null,
    opensAtLocal: opensAt === null ? null : localTimeOfDay(opensAt, timeZone),
  };
}
