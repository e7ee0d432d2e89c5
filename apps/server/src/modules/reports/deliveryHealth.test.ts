import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryHealth } from '@parley/shared';
import type { Database } from '../../platform/db/client.js';
import { contacts } from '../../platform/db/schema/index.js';
import { startApiHarness, type ApiHarness } from '../../test/apiHarness.js';
import { addConversation, addMember, addMessage } from '../../test/conversations.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { sendingAccount } from '../../test/sendingFixtures.js';
import { deliveryHealth } from './deliveryHealth.js';

const HOUR = 3_600_000;

describe.each(testDatabaseKinds)('delivery health (%s)', (kind) => {
  let api: ApiHarness;
  let database: Database;
  beforeAll(async () => {
    api = await startApiHarness(kind);
    database = api.database;
  });
  afterAll(async () => {
    await api.close();
  });

  it("counts the last 24 hours' outgoing texts by where they stand, the error codes, the opt-outs, and gives a level", async () => {
    const account = await sendingAccount(database.db);
    const now = new Date();
    const ada = await addConversation(database.db, account, { firstName: 'Ada' });
    const bob = await addConversation(database.db, account, { firstName: 'Bob' });
    const out = (conversation: typeof ada, overrides: object) => addMessage(database.db, account, conversation, { direction: 'outbound', ...overrides });
    for (let i = 0; i < 18; i++) await out(ada, { status: 'delivered' });
    await out(ada, { status: 'failed', errorCode: '30006', errorDescription: 'Landline or unreachable carrier' });
    const latest = await out(bob, { status: 'undelivered', errorCode: '30006', errorDescription: 'Landline or unreachable carrier' });
    await out(bob, { status: 'failed', errorCode: '21610', errorDescription: 'Unsubscribed recipient', createdAt: new Date(now.getTime() - HOUR) });
    await out(bob, { status: 'sent' });
    // Held until the recipient's quiet hours end.
    await out(bob, { status: 'queued', timeZone: 'America/New_York', sendAfter: new Date(now.getTime() + 5 * HOUR) });
    // Outside the window, and incoming: not counted.
    await out(ada, { status: 'failed', errorCode: '1', createdAt: new Date(now.getTime() - 25 * HOUR) });
    await addMessage(database.db, account, ada, {});
    await database.db.update(contacts).set({ optedOutAt: new Date(now.getTime() - 2 * HOUR) }).where(eq(contacts.id, bob.contactId));

    const health = await deliveryHealth(database.db, account.accountId, now);
    expect(health).toMatchObject({
      outbound: 23,
      delivered: 18,
      errors: 3,
      awaiting: 1,
      queued: 1,
      heldForQuietHours: 1,
      deliveryRate: 0.8571,
      errorRate: 0.1429,
      recipients: 2,
      optOuts: 1,
      level: 'red',
      carrierErrors: [
        { code: '30006', description: 'Landline or unreachable carrier', count: 2 },
        { code: '21610', description: 'Unsubscribed recipient', count: 1 },
      ],
    });
    expect(health.recentErrors).toHaveLength(3);
    expect(health.recentErrors[0]).toMatchObject({ messageId: latest.id, conversationId: bob.id, to: bob.mobile, code: '30006' });
  });

  it('answers administrators only, and only of their own account', async () => {
    const account = await sendingAccount(database.db);
    const other = await sendingAccount(database.db);
    const url = `/v1/accounts/${account.accountId}/reports/deliveryhealth`;
    const admin = await api.call('GET', url, api.tokenFor(account.adminId));
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json<{ data: DeliveryHealth }>().data).toMatchObject({ level: 'none', outbound: 0, deliveryRate: null, recentErrors: [] });
    const sender = await addMember(database.db, account.accountId, 'Sender');
    expect((await api.call('GET', url, api.tokenFor(sender))).statusCode).toBe(403);
    expect((await api.call('GET', url, api.tokenFor(other.adminId))).statusCode).toBe(404);
  });
});
