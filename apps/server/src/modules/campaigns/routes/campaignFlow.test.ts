import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignExecution } from '@parley/shared';
import { queryRows } from '../../../platform/db/client.js';
import { phoneNumbers } from '../../../platform/db/schema/index.js';
import { devToken } from '../../identity/authenticator.js';
import { insertCampaign } from '../../../test/campaigns.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startTestServer, type TestServer } from '../../../test/server.js';
import { addContact, sendingAccount } from '../../../test/sendingFixtures.js';

async function until<T>(probe: () => Promise<T | null>, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each(testDatabaseKinds)('a campaign through the running server on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { DEV_AUTH: 'true', SIMULATOR: 'true' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('executes over HTTP, and the worker queues every message once and the dispatcher hands them to the carrier', async () => {
    const account = await sendingAccount(server.database.db, { balance: '10' });
    // A number fast enough that the test waits on the campaign, not on the number's rate.
    await server.database.db.update(phoneNumbers).set({ messagesPerSecond: 100 }).where(eq(phoneNumbers.id, account.numberId));
    for (let i = 0; i < 30; i += 1) await addContact(server.database.db, account.accountId, { firstName: `Guest ${String(i)}` });
    const campaign = await insertCampaign(server.database.db, account.accountId, account.numberId);
    const authorization = `Bearer ${devToken(account.adminId, account.accountId)}`;
    const base = `${server.baseUrl}/v1/accounts/${account.accountId}/campaigns/${campaign.id}`;

    const executed = await fetch(`${base}/execute`, { method: 'POST', headers: { authorization } });
    expect(executed.status, await executed.clone().text()).toBe(202);
    const { data: execution } = (await executed.json()) as { data: CampaignExecution };

    const done = await until(async () => {
      const res = await fetch(`${base}/jobs`, { headers: { authorization } });
      const [row] = ((await res.json()) as { data: CampaignExecution[] }).data;
      return row?.status === 'done' ? row : null;
    });
    expect(done).toMatchObject({ id: execution.id, recipients: 30, submitted: 30, price: '0.3000' });
    const handed = await until(async () => {
      const [row] = await queryRows<{ total: number; handed: number; contacts: number }>(
        server.database.db,
        sql`select count(*)::int as total, count(*) filter (where status <> 'queued' and status <> 'sending')::int as handed,
                   count(distinct contact_id)::int as contacts
              from messages where job_id = ${execution.id}`,
      );
      return row !== undefined && row.handed === 30 ? row : null;
    });
    expect(handed).toEqual({ total: 30, handed: 30, contacts: 30 });
  });
});
