import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { roles, type HeldMessage, type Pagination } from '@parley/shared';
import { MessageDispatcher } from '../dispatcher.js';
import { createSendingSetup, messageRows, queueTestMessages, RecordingCarrier, registryOf, retireAccount } from '../test/dispatcherFixtures.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { useRouteHarness } from '../../../test/routeHarness.js';

const quietHours = { enabled: true, start: '08:00', end: '21:00' };
const zone = 'America/New_York';

describe.each(testDatabaseKinds)('acceptable hours approvals on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind);
  const url = (acc: string, type = 'acceptablehours') => `/v1/accounts/${acc}/approvals/${type}`;

  /** In the account: messages quiet hours hold, and others that must not be listed. */
  async function heldAndOthers(accountId: string) {
    const s = await createSendingSetup(h.database.db, { carrier: 'smpp', accountId, quietHours });
    const inHours = Date.now() + 3 * 3600_000;
    const held = [
      ...(await queueTestMessages(h.database.db, s, { count: 2, price: '0', timeZone: zone, sendAfter: new Date(inHours) })),
      ...(await queueTestMessages(h.database.db, s, { count: 1, price: '0', timeZone: zone, sendAfter: new Date(inHours - 3600_000) })),
    ];
    const approved = await queueTestMessages(h.database.db, s, { count: 1, price: '0', timeZone: zone, sendAfter: new Date(inHours), approved: true });
    const due = await queueTestMessages(h.database.db, s, { count: 1, price: '0', timeZone: zone });
    const noZone = await queueTestMessages(h.database.db, s, { count: 1, price: '0', timeZone: null, sendAfter: new Date(inHours) });
    const backingOff = await queueTestMessages(h.database.db, s, { count: 1, price: '0', timeZone: zone, sendAfter: new Date(Date.now() + 8000) });
    await h.database.db.execute(sql`update messages set attempts = 2 where id = ${backingOff[0]}`);
    const sent = await queueTestMessages(h.database.db, s, { count: 1, price: '0', timeZone: zone, sendAfter: new Date(inHours) });
    await h.database.db.execute(sql`update messages set status = 'sent' where id = ${sent[0]}`);
    return { s, held, others: [...approved, ...due, ...noZone, ...backingOff, ...sent] };
  }

  const list = async (acc: string, token: string, query = '') => {
    const res = await h.call('GET', `${url(acc)}${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: HeldMessage[]; pagination: Pagination }>();
  };

  it('lists the messages quiet hours hold, the soonest first, paged with the count, to every role', async () => {
    const { s, held } = await heldAndOthers(fixtures.accountId);
    try {
      for (const role of roles) {
        const page = await list(fixtures.accountId, tokens[role]);
        expect(page.pagination).toEqual({ totalCount: 3, offset: 0, limit: 10 });
        expect(page.data.map((m) => m.id)).toEqual([held[2], held[0], held[1]]);
      }
      const [first] = (await list(fixtures.accountId, tokens.ReadOnly, '?limit=1&offset=1')).data;
      expect(first).toEqual({
        id: held[0],
        message: 'Message 1',
        contact: { id: s.contactId, firstName: '', lastName: '', mobile: s.contactNumber },
        phoneNumber: { id: s.phoneNumberId, number: s.number },
        timeZone: zone,
        sendAfter: expect.any(String) as string,
        created: { at: expect.any(String) as string },
      });
    } finally {
      await retireAccount(h.database.db, fixtures.accountId);
    }
  });

  it('answers 404 for an approval type it does not know, and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const { held } = await heldAndOthers(account.id);
    for (const method of ['GET', 'POST'] as const) {
      const res = await h.call(method, url(account.id, 'somethingelse'), token, method === 'POST' ? {} : undefined);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The approval type was not found.' } });
    }
    expect((await messageRows(h.database.db, held)).every((m) => m.approvedOutsideHoursAt === null)).toBe(true);
    await retireAccount(h.database.db, account.id);
  });

  it('lets only administrators approve', async () => {
    const { held } = await heldAndOthers(fixtures.accountId);
    try {
      for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
        const res = await h.call('POST', url(fixtures.accountId), tokens[role], {});
        expect(res.statusCode, role).toBe(403);
      }
      expect((await messageRows(h.database.db, held)).every((m) => m.approvedOutsideHoursAt === null)).toBe(true);
      const res = await h.call('POST', url(fixtures.accountId), tokens.Administrator, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { approved: 3 } });
    } finally {
      await retireAccount(h.database.db, fixtures.accountId);
    }
  });

  it('approves every held message (and only those) when none are named; the dispatcher then sends them at once', async () => {
    const { account, token } = await ownAccount({ quietHoursEnabled: true });
    const { held, others } = await heldAndOthers(account.id);
    const before = Date.now();
    const res = await h.call('POST', url(account.id), token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { approved: 3 } });
    for (const row of await messageRows(h.database.db, held)) {
      expect(row.approvedOutsideHoursAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(row.sendAfter.getTime()).toBe(row.approvedOutsideHoursAt?.getTime());
    }
    const othersBefore = await messageRows(h.database.db, others);
    expect(othersBefore.filter((m) => m.status === 'queued' && m.approvedOutsideHoursAt === null).length).toBe(3);
    expect((await list(account.id, token)).pagination.totalCount).toBe(0);

    // At night in New York: quiet hours hold everything but what was approved.
    const night = new Date('2030-01-15T07:00:00.000Z');
    await h.database.db.execute(sql`update messages set send_after = ${night.toISOString()}::timestamptz - interval '1 second'
      where account_id = ${account.id} and status = 'queued' and approved_outside_hours_at is not null`);
    const carrier = new RecordingCarrier('smpp');
    await new MessageDispatcher({ database: h.database, carriers: registryOf(carrier), log: silentLogger(), clock: () => night }).dispatchOnce();
    // The approved ones, and the one without a recipient zone (never held); not the others.
    expect(new Set(carrier.submits.map((m) => m.id))).toEqual(new Set([...held, others[0], others[2]]));
    await retireAccount(h.database.db, account.id);
  });

  it("approves only the messages named, leaving out another account's and those not held", async () => {
    const { account, token } = await ownAccount();
    const mine = await heldAndOthers(account.id);
    const { account: otherAccount } = await ownAccount();
    const theirs = await heldAndOthers(otherAccount.id);
    const res = await h.call('POST', url(account.id), token, {
      messageIds: [mine.held[1], theirs.held[0], mine.others[0], randomUUID()],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { approved: 1 } });
    const rows = await messageRows(h.database.db, [...mine.held, ...theirs.held]);
    expect(rows.map((r) => r.approvedOutsideHoursAt !== null)).toEqual([false, true, false, false, false, false]);
    // Another account's held messages are not its business either way.
    expect((await h.call('GET', url(otherAccount.id), token)).statusCode).toBe(404);
    await retireAccount(h.database.db, account.id);
    await retireAccount(h.database.db, otherAccount.id);
  });

  it('answers 0 when nothing is held', async () => {
    const { account, token } = await ownAccount();
    expect((await list(account.id, token)).data).toEqual([]);
    const res = await h.call('POST', url(account.id), token, {});
    expect(res.json()).toEqual({ data: { approved: 0 } });
  });

  it('refuses bad ids with a clear message and changes nothing', async () => {
    const { account, token } = await ownAccount();
    const { held } = await heldAndOthers(account.id);
    for (const body of [{ messageIds: ['not-an-id'] }, { messageIds: [] }, { messageIds: 'all' }]) {
      const res = await h.call('POST', url(account.id), token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('validation_failed');
    }
    const empty = await h.call('POST', url(account.id), token, { messageIds: [] });
    expect(empty.body).toContain('Name at least one message, or leave messageIds out to approve all');
    expect((await messageRows(h.database.db, held)).every((m) => m.approvedOutsideHoursAt === null)).toBe(true);
    await retireAccount(h.database.db, account.id);
  });
});
