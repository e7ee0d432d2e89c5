import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localTimeOfDay, roles, type AcceptableHoursStatus } from '@parley/shared';
import { acceptableHoursStatus } from '../acceptableHoursStatus.js';
import { conversations, messages } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { addContact, sendingAccount } from '../../../test/sendingFixtures.js';

describe.each(testDatabaseKinds)("a contact's acceptable hours on %s", (kind) => {
  const { h, fixtures, tokens } = useRouteHarness(kind);
  const quietHours = { enabled: true, start: '08:00', end: '21:00' };
  // 08:10Z on 29 November: 03:10 in New York.
  const night = new Date('2026-11-29T08:10:00Z');

  it('tells the local time, that the hours are closed and when they open, and whether the contact just wrote', async () => {
    const account = await sendingAccount(h.database.db, { quietHours });
    const contact = await addContact(h.database.db, account.accountId, { mobileNumber: '+12125550161', mobileCountry: 'US' });
    expect(await acceptableHoursStatus(h.database.db, account.accountId, contact.id, night)).toEqual({
      applies: true,
      timeZone: 'America/New_York',
      localTime: '03:10',
      open: false,
      recentlyWrote: false,
      opensAt: '2026-11-29T13:00:00.000Z',
      opensAtLocal: '08:00',
    });
    const conversationId = randomUUID();
    await h.database.db.insert(conversations).values({ id: conversationId, accountId: account.accountId, contactId: contact.id });
    await h.database.db.insert(messages).values({
      id: randomUUID(),
      accountId: account.accountId,
      conversationId,
      contactId: contact.id,
      direction: 'inbound',
      fromNumber: contact.mobileNumber,
      toNumber: account.number,
      status: 'received',
      createdAt: new Date(night.getTime() - 60_000),
    });
    expect(await acceptableHoursStatus(h.database.db, account.accountId, contact.id, night)).toMatchObject({ open: false, recentlyWrote: true });
    const noon = new Date('2026-11-29T17:00:00Z');
    expect(await acceptableHoursStatus(h.database.db, account.accountId, contact.id, noon)).toMatchObject({ open: true, opensAt: null, opensAtLocal: null });
  });

  it('answers every role of the account, and 404 for a contact of another account or no contact', async () => {
    const contact = await addContact(h.database.db, fixtures.accountId, { mobileNumber: '+447400123456', mobileCountry: 'GB' });
    await h.database.db.execute(sql`update accounts set quiet_hours_enabled = false where id = ${fixtures.accountId}`);
    for (const role of roles) {
      // The server reads the clock between these two readings: a minute may turn meanwhile.
      const before = localTimeOfDay(new Date(), 'Europe/London');
      const res = await h.call('GET', `/v1/accounts/${fixtures.accountId}/contacts/${contact.id}/acceptablehours`, tokens[role]);
      const after = localTimeOfDay(new Date(), 'Europe/London');
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json<{ data: AcceptableHoursStatus }>();
      expect(data).toMatchObject({ applies: false, open: true, timeZone: 'Europe/London' });
      expect([before, after]).toContain(data.localTime);
    }
    const other = await sendingAccount(h.database.db);
    const theirs = await addContact(h.database.db, other.accountId);
    for (const id of [theirs.id, randomUUID(), 'not-an-id']) {
      const res = await h.call('GET', `/v1/accounts/${fixtures.accountId}/contacts/${id}/acceptablehours`, tokens.Administrator);
      expect(res.statusCode).toBe(404);
    }
  });
});
