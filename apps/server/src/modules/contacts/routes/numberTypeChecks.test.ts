import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUMBER_TYPE_CHECK_MAX, type NumberTypeCheck } from '@parley/shared';
import { buildApp, type App } from '../../../app/httpApp.js';
import type { Database } from '../../../platform/db/client.js';
import { accounts, contacts, events, numberTypeChecks } from '../../../platform/db/schema/index.js';
import { JobQueue } from '../../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../../platform/mail/localMailbox.js';
import { TableAuthenticator } from '../../../test/apiHarness.js';
import { testConfig } from '../../../test/config.js';
import { openTestDatabase, testDatabaseKinds, uniqueJobsSchema } from '../../../test/databases.js';
import { roleFixtures } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { uniqueTestNumber } from '../../../test/phoneNumbers.js';
import { creditAccount } from '../../billing/ledger.js';
import { createCarrierRegistry } from '../../carriers/registry.js';
import { createMessageHandlers } from '../../messaging/handlers.js';
import { checkNumberTypesJob } from '../checkNumberTypesJob.js';
import { runNumberTypeCheck } from '../numberTypeCheckRunner.js';

describe.each(testDatabaseKinds)('Check number types on selected contacts (%s)', (kind) => {
  let database: Database;
  let jobs: JobQueue;
  let app: App;
  const authenticator = new TableAuthenticator();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const log = silentLogger();
    // A queue that takes the job but does not work it: the test runs the job's work itself, to await it.
    jobs = new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1, schema: uniqueJobsSchema() });
    await jobs.start([checkNumberTypesJob(database)]);
    app = await buildApp(
      { config: testConfig({}), log, database, jobs, authenticator, mailer: createLocalMailbox(database.db), carriers: createCarrierRegistry('simulator', { deployment: {} }), carrierHandlers: createMessageHandlers({ database, log }) },
      { webDist: null },
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await jobs.stop(1000);
    await database.close();
  });

  const call = (method: 'GET' | 'POST', url: string, userId: string, body?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${authenticator.add({ userId, accountIds: [] })}` }, ...(body === undefined ? {} : { payload: body }) });

  /** An account with a balance, its administrator and Read Only user, and contacts made through the API. */
  async function setUp(balance: string | null) {
    const { accountId, users } = await roleFixtures(database.db);
    if (balance !== null) await database.db.transaction((tx) => creditAccount(tx, { accountId, amount: balance, description: 'Test credit' }));
    const add = async (mobile: { number: string; country: string }): Promise<string> => {
      const res = await call('POST', `/v1/accounts/${accountId}/contacts`, users.Administrator, { firstName: 'Test', mobile });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json<{ data: { id: string }[] }>().data[0] as { id: string }).id;
    };
    return { accountId, users, add, base: `/v1/accounts/${accountId}/contacts/numbertypes` };
  }

  const balanceOf = async (accountId: string): Promise<string> =>
    (await database.db.select({ balance: accounts.balance }).from(accounts).where(eq(accounts.id, accountId)))[0]?.balance ?? '';

  it('gives each unchecked valid number its type for a cent, leaves the checked ones, skips the rest, and says so', async () => {
    const { accountId, users, add, base } = await setUp('1.00');
    const fresh = await add({ number: uniqueTestNumber(), country: 'US' });
    const typed = await add({ number: uniqueTestNumber(), country: 'US' });
    await database.db.update(contacts).set({ numberType: 'MOBILE' }).where(eq(contacts.id, typed));
    const invalid = await add({ number: '12', country: 'US' });
    const removed = await add({ number: uniqueTestNumber(), country: 'US' });

    const started = await call('POST', base, users.Administrator, { ids: [fresh, typed, invalid, removed, fresh] });
    expect(started.statusCode, started.body).toBe(202);
    const check = started.json<{ data: NumberTypeCheck }>().data;
    expect(check).toMatchObject({ status: 'queued', total: 4, processed: 0, checked: 0, finishedAt: null });
    await database.db.delete(contacts).where(eq(contacts.id, removed));

    await runNumberTypeCheck(database, check.id);
    const done = (await call('GET', `${base}/${check.id}`, users.ReadOnly)).json<{ data: NumberTypeCheck }>().data;
    expect(done).toMatchObject({ status: 'completed', total: 4, processed: 4, checked: 1, alreadyChecked: 1, skipped: 2, notPaid: 0 });
    expect(done.finishedAt).not.toBeNull();
    const rows = await database.db.select({ id: contacts.id, numberType: contacts.numberType }).from(contacts).where(inArray(contacts.id, [fresh, typed, invalid]));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.numberType]))).toEqual({ [fresh]: 'FIXED_LINE_OR_MOBILE', [typed]: 'MOBILE', [invalid]: null });
    expect(await balanceOf(accountId)).toBe('0.9900');
    // The contact that changed is announced, as every change of a contact is; the others are not.
    const announced = await database.db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.accountId, accountId), eq(events.type, 'contactUpdated')));
    expect(announced.map((e) => (e.data as { contact: { id: string } }).contact.id)).toEqual([fresh]);

    // Run again (a retry after it finished): nothing more is checked or charged.
    await runNumberTypeCheck(database, check.id);
    expect((await call('GET', `${base}/${check.id}`, users.Administrator)).json<{ data: NumberTypeCheck }>().data).toMatchObject({ checked: 1, processed: 4 });
    expect(await balanceOf(accountId)).toBe('0.9900');
  });

  it('goes on after the last batch it committed, and counts contacts the balance cannot pay for', async () => {
    const { accountId, users, add, base } = await setUp(null);
    const first = await add({ number: uniqueTestNumber(), country: 'US' });
    const second = await add({ number: uniqueTestNumber(), country: 'US' });
    const check = (await call('POST', base, users.Administrator, { ids: [first, second] })).json<{ data: NumberTypeCheck }>().data;
    // As if a worker had committed the first contact's batch and died.
    await database.db.update(numberTypeChecks).set({ status: 'running', processed: 1, skipped: 1 }).where(eq(numberTypeChecks.id, check.id));
    await runNumberTypeCheck(database, check.id);
    const done = (await call('GET', `${base}/${check.id}`, users.Administrator)).json<{ data: NumberTypeCheck }>().data;
    // The first contact was not looked at again; the second could not be paid for: no balance.
    expect(done).toMatchObject({ status: 'completed', processed: 2, checked: 0, skipped: 1, notPaid: 1 });
    const rows = await database.db.select({ numberType: contacts.numberType }).from(contacts).where(inArray(contacts.id, [first, second]));
    expect(rows.map((r) => r.numberType)).toEqual([null, null]);
    expect(await balanceOf(accountId)).toBe('0.0000');
  });

  it('refuses Read Only, contacts of another account, an empty or oversized selection, and a check of another account', async () => {
    const { users, add, base } = await setUp('1.00');
    const mine = await add({ number: uniqueTestNumber(), country: 'US' });
    const other = await setUp('1.00');
    const theirs = await other.add({ number: uniqueTestNumber(), country: 'US' });
    const before = await database.db.select({ id: numberTypeChecks.id }).from(numberTypeChecks);

    expect((await call('POST', base, users.ReadOnly, { ids: [mine] })).statusCode).toBe(403);
    const foreign = await call('POST', base, users.Administrator, { ids: [mine, theirs] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ error: { message: string } }>().error.message).toBe('One or more of the contacts were not found.');
    const empty = await call('POST', base, users.Administrator, { ids: [] });
    expect(empty.statusCode).toBe(400);
    const many = await call('POST', base, users.Administrator, { ids: Array.from({ length: NUMBER_TYPE_CHECK_MAX + 1 }, () => randomUUID()) });
    expect(many.statusCode).toBe(400);
    expect(many.body).toContain(`At most ${String(NUMBER_TYPE_CHECK_MAX)} contacts at once`);
    expect(await database.db.select({ id: numberTypeChecks.id }).from(numberTypeChecks)).toHaveLength(before.length);

    const allowed = await call('POST', base, users.Sender, { ids: [mine] });
    expect(allowed.statusCode).toBe(202);
    const id = allowed.json<{ data: NumberTypeCheck }>().data.id;
    expect((await call('GET', `${other.base}/${id}`, other.users.Administrator)).statusCode).toBe(404);
    expect((await call('GET', `${base}/not-an-id`, users.Administrator)).statusCode).toBe(404);
  });
});
