import { asc, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE,
  CAMPAIGN_FILE_PREVIEW_MESSAGE,
  CAMPAIGN_FILE_REQUIRED_MESSAGE,
  CAMPAIGN_FILE_ROWS_MAX,
  CAMPAIGN_FILE_ROWS_MAX_MESSAGE,
  CAMPAIGN_INACTIVE_MESSAGE,
  INSUFFICIENT_CREDIT_MESSAGE,
  emptyInvalidCounts,
  type Campaign,
  type CampaignExecution,
  type CampaignPreview,
  type Pagination,
} from '@parley/shared';
import { runCampaignExecution } from '../campaignSender.js';
import { queryRows } from '../../../platform/db/client.js';
import { accountMembers, campaigns, contactLists, contacts, listMembers, messages, users } from '../../../platform/db/schema/index.js';
import { ledgerAndBalance } from '../../../test/accounts.js';
import { insertCampaign, queuedExecutionJobs, startCampaignHarness, type CampaignHarness } from '../../../test/campaigns.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { addContact, balanceOf, sendingAccount, uniqueSendingTestNumber } from '../../../test/sendingFixtures.js';
import { FILE_TOO_LARGE_MESSAGE } from './executions.js';

describe.each(testDatabaseKinds)('campaign executions over HTTP on %s', (kind) => {
  let h: CampaignHarness;
  beforeAll(async () => {
    h = await startCampaignHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  const base = (acc: string, id: string) => `/v1/accounts/${acc}/campaigns/${id}`;
  const errorOf = (res: Awaited<ReturnType<CampaignHarness['call']>>) => res.json<{ error: { code: string; message: string } }>().error;

  async function account(balance = '10') {
    const a = await sendingAccount(h.database.db, { balance });
    return { ...a, token: h.tokenFor(a.adminId) };
  }

  const jobsOf = async (acc: string, id: string, token: string) =>
    (await h.call('GET', `${base(acc, id)}/jobs`, token)).json<{ data: CampaignExecution[]; pagination: Pagination }>();

  it('previews, executes (the run prepended, the count and last execution updated) and sends what it estimated', async () => {
    const a = await account();
    for (const firstName of ['Ann', 'Bob', 'Cat']) await addContact(h.database.db, a.accountId, { firstName });
    await addContact(h.database.db, a.accountId, { firstName: 'Dan', optedOutAt: new Date() });
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, { template: 'Hi {{{firstName}}}, doors open at 9.' });

    const preview = await h.call('GET', `${base(a.accountId, campaign.id)}/preview`, a.token);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<{ data: CampaignPreview }>().data).toEqual({
      contacts: 3,
      estimatedPrice: '0.0300',
      invalidCount: 1,
      invalidCounts: { ...emptyInvalidCounts(), optedOut: 1 },
      insufficientCredit: false,
    });

    const first = await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token);
    expect(first.statusCode, first.body).toBe(202);
    const execution = first.json<{ data: CampaignExecution }>().data;
    expect(execution).toMatchObject({
      campaign: { id: campaign.id },
      status: 'running',
      recipients: 3,
      submitted: 0,
      invalidCount: 1,
      invalid: [{ reason: 'optedOut', description: 'This contact has opted out of messages.', row: null }],
      failures: 0,
      incoming: 0,
      price: '0.0000',
      error: null,
      finished: null,
    });
    expect(await queuedExecutionJobs(h.database.db, h.jobsSchema, execution.id)).toEqual([{ state: 'created' }]);
    const campaignAfter = (await h.call('GET', base(a.accountId, campaign.id), a.token)).json<{ data: Campaign }>().data;
    expect(campaignAfter).toMatchObject({ executions: 1, lastJob: { id: execution.id }, lastExecution: execution.created.at });

    // The worker's part.
    expect(await runCampaignExecution(h.database.db, execution.id)).toBe('done');
    const second = (await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token, {})).json<{ data: CampaignExecution }>().data;
    const listed = await jobsOf(a.accountId, campaign.id, a.token);
    expect(listed.pagination.totalCount).toBe(2);
    expect(listed.data.map((e) => e.id)).toEqual([second.id, execution.id]);
    expect(listed.data[1]).toMatchObject({ status: 'done', submitted: 3, price: '0.0300', finished: { at: expect.any(String) as string } });
    const sent = await h.database.db.select({ price: messages.price }).from(messages).where(eq(messages.jobId, execution.id));
    expect(sent.map((m) => m.price)).toEqual(['0.0100', '0.0100', '0.0100']);
    expect(await balanceOf(h.database.db, a.accountId)).toBe('9.9700');
    expect((await h.call('GET', base(a.accountId, campaign.id), a.token)).json<{ data: Campaign }>().data).toMatchObject({ executions: 2, lastJob: { id: second.id } });
  });

  it('counts replies and carrier failures on the execution row', async () => {
    const a = await account();
    const ann = await addContact(h.database.db, a.accountId);
    await addContact(h.database.db, a.accountId);
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, { template: 'Hello' });
    const execution = (await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token)).json<{ data: CampaignExecution }>().data;
    await runCampaignExecution(h.database.db, execution.id);
    const sent = await h.database.db.select().from(messages).where(eq(messages.jobId, execution.id)).orderBy(asc(messages.id));
    const toAnn = sent.find((m) => m.contactId === ann.id);
    const other = sent.find((m) => m.contactId !== ann.id);
    if (!toAnn || !other) throw new Error('not sent');
    await h.database.db.update(messages).set({ status: 'undelivered', errorDescription: 'Unknown subscriber' }).where(eq(messages.id, other.id));
    await h.database.db.insert(messages).values({
      id: crypto.randomUUID(),
      accountId: a.accountId,
      conversationId: toAnn.conversationId,
      contactId: ann.id,
      direction: 'inbound',
      fromNumber: ann.mobileNumber,
      toNumber: a.number,
      body: 'Thanks!',
      status: 'received',
      createdAt: new Date(toAnn.createdAt.getTime() + 1000),
    });
    const [row] = (await jobsOf(a.accountId, campaign.id, a.token)).data;
    expect(row).toMatchObject({ submitted: 2, failures: 1, incoming: 1 });
  });

  it("answers 402 Insufficient Credit when the balance is below the estimate, and changes nothing", async () => {
    const a = await account('0.0150');
    await addContact(h.database.db, a.accountId);
    await addContact(h.database.db, a.accountId);
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, { template: 'Hello' });
    const preview = (await h.call('GET', `${base(a.accountId, campaign.id)}/preview`, a.token)).json<{ data: CampaignPreview }>().data;
    expect(preview).toMatchObject({ contacts: 2, estimatedPrice: '0.0200', insufficientCredit: true });
    const res = await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: { code: 'bad_request', message: INSUFFICIENT_CREDIT_MESSAGE } });
    expect((await jobsOf(a.accountId, campaign.id, a.token)).data).toEqual([]);
    expect((await h.call('GET', base(a.accountId, campaign.id), a.token)).json<{ data: Campaign }>().data).toMatchObject({ executions: 0, lastJob: null });
    expect(await ledgerAndBalance(h.database.db, a.accountId)).toEqual({ ledger: '0.0150', balance: '0.0150' });
  });

  it('lets administrators and campaign managers execute, and every role see the preview and the runs', async () => {
    const a = await account();
    await addContact(h.database.db, a.accountId);
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, { template: 'Hello' });
    for (const role of ['CampaignManager', 'Sender', 'ReadOnly'] as const) {
      const user = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: a.accountId, userId: user.id, role });
      const token = h.tokenFor(user.id);
      expect((await h.call('GET', `${base(a.accountId, campaign.id)}/preview`, token)).statusCode, role).toBe(200);
      expect((await h.call('GET', `${base(a.accountId, campaign.id)}/jobs`, token)).statusCode, role).toBe(200);
      expect((await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, token)).statusCode, role).toBe(role === 'CampaignManager' ? 202 : 403);
    }
    // A person whose e-mail is not verified may not spend.
    const unverified = await createUser(h.database.db, { emailVerifiedAt: null });
    await h.database.db.insert(accountMembers).values({ accountId: a.accountId, userId: unverified.id, role: 'Administrator' });
    const refused = await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, h.tokenFor(unverified.id));
    expect(refused.statusCode).toBe(403);
    expect((await jobsOf(a.accountId, campaign.id, a.token)).pagination.totalCount).toBe(1);
  });

  it('refuses an inactive campaign, rows for a campaign without file, and a file campaign without rows', async () => {
    const a = await account();
    await addContact(h.database.db, a.accountId);
    const inactive = await insertCampaign(h.database.db, a.accountId, a.numberId, { active: false });
    const manual = await insertCampaign(h.database.db, a.accountId, a.numberId);
    const upload = await insertCampaign(h.database.db, a.accountId, a.numberId, { trigger: 'FU', fieldMappings: [{ column: 'Phone', field: 'mobile' }] });
    const cases: [Awaited<ReturnType<CampaignHarness['call']>>, number, string][] = [
      [await h.call('POST', `${base(a.accountId, inactive.id)}/execute`, a.token), 409, CAMPAIGN_INACTIVE_MESSAGE],
      [await h.call('POST', `${base(a.accountId, manual.id)}/execute`, a.token, [{ Phone: '+14155550100' }]), 400, CAMPAIGN_FILE_NOT_EXPECTED_MESSAGE],
      [await h.call('POST', `${base(a.accountId, upload.id)}/execute`, a.token), 400, CAMPAIGN_FILE_REQUIRED_MESSAGE],
      [await h.call('GET', `${base(a.accountId, upload.id)}/preview`, a.token), 400, CAMPAIGN_FILE_PREVIEW_MESSAGE],
      [await h.call('POST', `${base(a.accountId, upload.id)}/execute`, a.token, []), 400, 'The file has no rows'],
      [await h.call('POST', `${base(a.accountId, upload.id)}/execute`, a.token, [{ Phone: '+14155550100' }], { 'content-length': String(65 * 1024 * 1024) }), 413, FILE_TOO_LARGE_MESSAGE],
    ];
    for (const [res, status, message] of cases) {
      expect(res.statusCode, res.body).toBe(status);
      expect(errorOf(res).message).toContain(message);
    }
    const tooMany = Array.from({ length: CAMPAIGN_FILE_ROWS_MAX + 1 }, () => ({ Phone: '1' }));
    const res = await h.call('POST', `${base(a.accountId, upload.id)}/execute`, a.token, tooMany);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toContain(CAMPAIGN_FILE_ROWS_MAX_MESSAGE);
    const [counted] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from campaign_jobs where account_id = ${a.accountId}`);
    expect(counted?.n).toBe(0);
  });

  it('executes a file upload: each row creates or updates its contact and becomes a personal message', async () => {
    const a = await account();
    const existing = await addContact(h.database.db, a.accountId, { firstName: 'Old', lastName: 'Name', email: 'bob@example.test' });
    const blocked = await addContact(h.database.db, a.accountId, { blockedAt: new Date() });
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, {
      trigger: 'FU',
      template: 'Hi {{{firstName}}}, see you at {{{slot}}}.',
      fieldMappings: [
        { column: 'Phone', field: 'mobile' },
        { column: 'Name', field: 'firstName' },
        { column: 'Slot', field: 'slot' },
        { column: 'Missing', field: 'email' },
      ],
    });
    const ann = uniqueSendingTestNumber();
    const rows = [
      { Phone: ann, Name: 'Ann', Slot: '10:00', Note: 'ignored' },
      { Phone: existing.mobileNumber, Name: 'Bob', Slot: 11 },
      { Phone: '', Name: 'Nobody', Slot: '12:00' },
      { Phone: ann, Name: 'Ann again', Slot: '13:00' },
      { Phone: blocked.mobileNumber, Name: 'Blocked', Slot: '14:00' },
      { Phone: '12', Name: 'Short', Slot: '15:00' },
    ];
    const res = await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token, rows);
    expect(res.statusCode, res.body).toBe(202);
    const execution = res.json<{ data: CampaignExecution }>().data;
    expect(execution).toMatchObject({ recipients: 2, invalidCount: 4 });
    expect(execution.invalid.map((e) => [e.row, e.reason])).toEqual([
      [3, 'missingMobile'],
      [4, 'duplicateRow'],
      [5, 'blocked'],
      [6, 'invalidNumber'],
    ]);
    expect(execution.invalid[1]?.description).toBe('Duplicate: the same number as row 1');

    await runCampaignExecution(h.database.db, execution.id);
    const sent = await h.database.db
      .select({ body: messages.body, to: messages.toNumber })
      .from(messages)
      .where(eq(messages.jobId, execution.id))
      .orderBy(asc(messages.toNumber));
    expect(sent.map((m) => m.body).sort()).toEqual(['Hi Ann, see you at 10:00.', 'Hi Bob, see you at 11.']);
    const [bob] = await h.database.db.select().from(contacts).where(eq(contacts.id, existing.id));
    // Updated, not replaced: what the file does not carry stays.
    expect(bob).toMatchObject({ firstName: 'Bob', lastName: 'Name', email: 'bob@example.test', attributes: { slot: '11' } });
    const [created] = await h.database.db.select().from(contacts).where(eq(contacts.mobileNumber, ann));
    expect(created).toMatchObject({ accountId: a.accountId, firstName: 'Ann', attributes: { slot: '10:00' } });
    expect((await h.call('GET', base(a.accountId, campaign.id), a.token)).json<{ data: Campaign }>().data.executions).toBe(1);
  });

  it('leaves out a row whose contact opted out of the list the row names, and texts the list\'s other members', async () => {
    const a = await account();
    const listId = uuidv7();
    await h.database.db.insert(contactLists).values({ id: listId, accountId: a.accountId, name: 'Patients' });
    const out = await addContact(h.database.db, a.accountId, { firstName: 'Out' });
    const member = await addContact(h.database.db, a.accountId, { firstName: 'Member' });
    const elsewhere = await addContact(h.database.db, a.accountId, { firstName: 'Elsewhere' });
    await h.database.db.insert(listMembers).values([
      { id: uuidv7(), accountId: a.accountId, listId, contactId: out.id, status: 'optedOut' },
      { id: uuidv7(), accountId: a.accountId, listId, contactId: member.id, status: 'subscribed' },
    ]);
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, {
      trigger: 'FU',
      template: 'Hello',
      fieldMappings: [
        { column: 'Phone', field: 'mobile' },
        { column: 'List', field: 'listId' },
      ],
    });
    const fresh = uniqueSendingTestNumber();
    const rows = [
      { Phone: out.mobileNumber, List: 'Patients' },
      { Phone: member.mobileNumber, List: 'Patients' },
      { Phone: fresh, List: 'Patients' },
      // No list named: the list's opt-out does not apply to this row.
      { Phone: elsewhere.mobileNumber, List: '' },
    ];
    const res = await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token, rows);
    expect(res.statusCode, res.body).toBe(202);
    const execution = res.json<{ data: CampaignExecution }>().data;
    expect(execution).toMatchObject({ recipients: 3, invalidCount: 1 });
    expect(execution.invalid).toEqual([
      { reason: 'listOptedOut', description: 'This contact has opted out of the list.', contact: { id: out.id }, mobile: out.mobileNumber, row: 1 },
    ]);
    const [still] = await h.database.db.select().from(listMembers).where(eq(listMembers.contactId, out.id));
    expect(still?.status).toBe('optedOut');
  });

  it('changes no contact when a file upload is refused for Insufficient Credit', async () => {
    const a = await account('0.0050');
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, {
      trigger: 'FU',
      template: 'Hello',
      fieldMappings: [{ column: 'Phone', field: 'mobile' }],
    });
    const res = await h.call('POST', `${base(a.accountId, campaign.id)}/execute`, a.token, [{ Phone: uniqueSendingTestNumber() }]);
    expect(res.statusCode).toBe(402);
    expect(await h.database.db.select().from(contacts).where(eq(contacts.accountId, a.accountId))).toEqual([]);
    const [after] = await h.database.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(after?.executions).toBe(0);
    const [user] = await h.database.db.select().from(users).where(eq(users.id, a.adminId));
    expect(user).toBeDefined();
  });
});
