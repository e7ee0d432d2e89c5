import { and, asc, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN_INACTIVE_MESSAGE,
  INSUFFICIENT_CREDIT_MESSAGE,
  RESEND_NOTHING_MESSAGE,
  RESEND_RUNNING_MESSAGE,
  type Campaign,
  type CampaignExecution,
  type CampaignJobReport,
  type Pagination,
} from '@parley/shared';
import { campaignJobStatistics, CARRIER_FAILURE_DESCRIPTION } from '../campaignJobReport.js';
import { runCampaignExecution, sendCampaignBatch, stopExecution } from '../campaignSender.js';
import { CONTACT_BLOCKED_MESSAGE } from '../../contacts/reachability.js';
import { queryRows } from '../../../platform/db/client.js';
import { accountMembers, campaigns, contacts, messages, type ContactRow } from '../../../platform/db/schema/index.js';
import { insertCampaign, queuedExecutionJobs, startCampaignHarness, type CampaignHarness } from '../../../test/campaigns.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { createUser } from '../../../test/factories.js';
import { addContact, balanceOf, sendingAccount, uniqueSendingTestNumber } from '../../../test/sendingFixtures.js';

describe.each(testDatabaseKinds)('campaign job reports and resending on %s', (kind) => {
  let h: CampaignHarness;
  beforeAll(async () => {
    h = await startCampaignHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  const reportUrl = (acc: string, id: string, name = 'campaign') => `/v1/accounts/${acc}/reports/${name}/${id}`;
  const resendUrl = (acc: string, id: string) => `${reportUrl(acc, id)}/resend`;
  const errorOf = (res: Awaited<ReturnType<CampaignHarness['call']>>) => res.json<{ error: { code: string; message: string } }>().error;

  async function account(balance = '10') {
    const a = await sendingAccount(h.database.db, { balance });
    return { ...a, token: h.tokenFor(a.adminId) };
  }
  type Account = Awaited<ReturnType<typeof account>>;

  const reportOf = async (a: Account, id: string, token = a.token) => {
    const res = await h.call('GET', reportUrl(a.accountId, id), token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: CampaignJobReport }>().data;
  };

  async function execute(a: Account, campaignId: string): Promise<CampaignExecution> {
    const res = await h.call('POST', `/v1/accounts/${a.accountId}/campaigns/${campaignId}/execute`, a.token);
    expect(res.statusCode, res.body).toBe(202);
    return res.json<{ data: CampaignExecution }>().data;
  }

  const messageTo = async (jobId: string, contact: ContactRow) => {
    const [row] = await h.database.db.select().from(messages).where(and(eq(messages.jobId, jobId), eq(messages.contactId, contact.id)));
    if (!row) throw new Error(`no message to ${contact.firstName}`);
    return row;
  };

  async function reply(a: Account, to: { conversationId: string; contactId: string; createdAt: Date }, offsetMs: number): Promise<void> {
    await h.database.db.insert(messages).values({
      id: uuidv7(),
      accountId: a.accountId,
      conversationId: to.conversationId,
      contactId: to.contactId,
      direction: 'inbound',
      fromNumber: '+14155550000',
      toNumber: a.number,
      body: 'Reply',
      status: 'received',
      createdAt: new Date(to.createdAt.getTime() + offsetMs),
    });
  }

  /**
   * An execution that ended every way one can: Ann delivered, Bob failed (with the carrier's words), Cat
   * undelivered (without), Dan sent, Gus still queued, Eve blocked before her turn, Fay not sent when the
   * execution stopped for Insufficient Credit; Oli opted out and was left out from the start.
   */
  async function mixedExecution(a: Account) {
    const people: Record<string, ContactRow> = {};
    for (const firstName of ['Ann', 'Bob', 'Cat', 'Dan', 'Gus', 'Eve', 'Fay']) people[firstName] = await addContact(h.database.db, a.accountId, { firstName });
    const oli = await addContact(h.database.db, a.accountId, { firstName: 'Oli', lastName: 'Out', optedOutAt: new Date() });
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, { template: 'Hello {{{firstName}}}' });
    const execution = await execute(a, campaign.id);
    const get = (name: string): ContactRow => {
      const contact = people[name];
      if (!contact) throw new Error(name);
      return contact;
    };
    await h.database.db.update(contacts).set({ blockedAt: new Date() }).where(eq(contacts.id, get('Eve').id));
    expect(await sendCampaignBatch(h.database.db, execution.id, { size: 6 })).toBe('sent');
    await stopExecution(h.database.db, execution.id, INSUFFICIENT_CREDIT_MESSAGE);
    const set = async (name: string, values: Partial<typeof messages.$inferInsert>) => {
      await h.database.db.update(messages).set(values).where(eq(messages.id, (await messageTo(execution.id, get(name))).id));
    };
    await set('Ann', { status: 'delivered' });
    await set('Bob', { status: 'failed', errorCode: '30005', errorDescription: 'Unknown subscriber' });
    await set('Cat', { status: 'undelivered' });
    await set('Dan', { status: 'sent' });
    return { campaign, execution, get, oli };
  }

  it('reports the messages by status, the replies since, the errors and the contacts left out', async () => {
    const a = await account();
    const { execution, get, oli } = await mixedExecution(a);
    const toAnn = await messageTo(execution.id, get('Ann'));
    const toBob = await messageTo(execution.id, get('Bob'));
    await reply(a, toAnn, 1000);
    await reply(a, toAnn, 2000);
    await reply(a, toBob, 1000);
    // Before the execution's message, or in a conversation it did not text: not its replies.
    await reply(a, toAnn, -60_000);
    const stranger = await addContact(h.database.db, a.accountId);
    const strangers = uuidv7();
    await h.database.db.execute(sql`insert into conversations (id, account_id, contact_id) values (${strangers}, ${a.accountId}, ${stranger.id})`);
    await reply(a, { conversationId: strangers, contactId: stranger.id, createdAt: new Date() }, 1000);

    const report = await reportOf(a, execution.id);
    expect(report).toMatchObject({
      name: 'campaign',
      id: execution.id,
      job: {
        id: execution.id,
        campaignId: execution.campaign?.id,
        created: { at: execution.created.at },
        status: 'failed',
        error: { description: INSUFFICIENT_CREDIT_MESSAGE },
        invalidCount: 1,
      },
      resendable: 3,
    });
    expect(report.job.invalid).toEqual([
      {
        contactId: oli.id,
        mobile: oli.mobileNumber,
        firstName: 'Oli',
        lastName: 'Out',
        reason: 'optedOut',
        description: 'This contact has opted out of messages.',
      },
    ]);
    expect(report.statistics).toEqual([
      { status: 'queued', count: 1, outgoing: true },
      { status: 'sent', count: 1, outgoing: true },
      { status: 'delivered', count: 1, outgoing: true },
      { status: 'undelivered', count: 1, outgoing: true },
      { status: 'failed', count: 1, outgoing: true },
      { status: 'received', count: 3, outgoing: false },
    ]);
    expect(report.errors).toHaveLength(4);
    expect(report.errors).toEqual(
      expect.arrayContaining([
        { description: 'Unknown subscriber', count: 1 },
        { description: CARRIER_FAILURE_DESCRIPTION, count: 1 },
        { description: CONTACT_BLOCKED_MESSAGE, count: 1 },
        { description: INSUFFICIENT_CREDIT_MESSAGE, count: 1 },
      ]),
    );
    // The function the reporting e-mail uses counts the same, and nothing for another account.
    expect(await campaignJobStatistics(h.database.db, a.accountId, execution.id)).toEqual(report.statistics);
    const other = await account();
    expect(await campaignJobStatistics(h.database.db, other.accountId, execution.id)).toEqual([]);
    // The execution row's replies are the report's incoming messages.
    const jobs = await h.call('GET', `/v1/accounts/${a.accountId}/campaigns/${execution.campaign?.id ?? ''}/jobs`, a.token);
    expect(jobs.json<{ data: CampaignExecution[] }>().data[0]).toMatchObject({ incoming: 3 });
  });

  it('reports an execution that sent nothing with empty statistics', async () => {
    const a = await account();
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId);
    const execution = await execute(a, campaign.id);
    expect(execution.status).toBe('done');
    expect(await reportOf(a, execution.id)).toMatchObject({ statistics: [], errors: [], resendable: 0, job: { invalid: [], invalidCount: 0, error: null } });
  });

  it('lets every role read a report and only administrators and campaign managers resend; 404 for other accounts and names', async () => {
    const a = await account();
    const { execution } = await mixedExecution(a);
    const b = await account();
    const cases: [string, number][] = [
      [reportUrl(a.accountId, execution.id, 'messages'), 404],
      [reportUrl(a.accountId, execution.id, 'unknown'), 404],
      [reportUrl(a.accountId, 'not-an-id'), 404],
      [reportUrl(a.accountId, uuidv7()), 404],
    ];
    for (const [url, status] of cases) expect((await h.call('GET', url, a.token)).statusCode, url).toBe(status);
    // Another account's administrator: neither with their own account nor with this one in the path.
    for (const acc of [a.accountId, b.accountId]) {
      const read = await h.call('GET', reportUrl(acc, execution.id), b.token);
      expect(read.statusCode).toBe(404);
      expect(read.json()).not.toHaveProperty('data');
      expect((await h.call('POST', resendUrl(acc, execution.id), b.token)).statusCode).toBe(404);
    }
    expect((await h.call('POST', `/v1/accounts/${a.accountId}/reports/unknown/${execution.id}/resend`, a.token)).statusCode).toBe(404);

    for (const role of ['Sender', 'ReadOnly', 'CampaignManager'] as const) {
      const user = await createUser(h.database.db);
      await h.database.db.insert(accountMembers).values({ accountId: a.accountId, userId: user.id, role });
      const token = h.tokenFor(user.id);
      expect((await reportOf(a, execution.id, token)).id, role).toBe(execution.id);
      const resend = await h.call('POST', resendUrl(a.accountId, execution.id), token);
      expect(resend.statusCode, `${role}: ${resend.body}`).toBe(role === 'CampaignManager' ? 202 : 403);
    }
  });

  it('refuses a resend by a person whose e-mail is not verified, and of an inactive campaign', async () => {
    const a = await account();
    const { campaign, execution } = await mixedExecution(a);
    const unverified = await createUser(h.database.db, { emailVerifiedAt: null });
    await h.database.db.insert(accountMembers).values({ accountId: a.accountId, userId: unverified.id, role: 'Administrator' });
    expect((await h.call('POST', resendUrl(a.accountId, execution.id), h.tokenFor(unverified.id))).statusCode).toBe(403);
    await h.database.db.update(campaigns).set({ active: false }).where(eq(campaigns.id, campaign.id));
    const inactive = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(inactive.statusCode).toBe(409);
    expect(errorOf(inactive).message).toBe(CAMPAIGN_INACTIVE_MESSAGE);
    const [after] = await h.database.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(after?.executions).toBe(1);
  });

  it('resends the failed messages as a new execution with the same text, consent checked again, and never twice', async () => {
    const a = await account();
    const { campaign, execution, get } = await mixedExecution(a);
    // Editing the campaign afterwards does not change what the resend says.
    await h.database.db.update(campaigns).set({ template: 'Something else' }).where(eq(campaigns.id, campaign.id));
    // Five messages were charged (Eve was refused, Fay never sent).
    expect(await balanceOf(h.database.db, a.accountId)).toBe('9.9500');

    const res = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(res.statusCode, res.body).toBe(202);
    const resend = res.json<{ data: CampaignExecution }>().data;
    expect(resend).toMatchObject({
      campaign: { id: campaign.id },
      status: 'running',
      recipients: 3,
      submitted: 0,
      invalidCount: 1,
      invalid: [{ reason: 'blocked', contact: { id: get('Eve').id }, row: null }],
      error: null,
    });
    expect(await queuedExecutionJobs(h.database.db, h.jobsSchema, resend.id)).toEqual([{ state: 'created' }]);
    const listed = (await h.call('GET', `/v1/accounts/${a.accountId}/campaigns/${campaign.id}/jobs`, a.token)).json<{
      data: CampaignExecution[];
      pagination: Pagination;
    }>();
    expect(listed.data.map((e) => e.id)).toEqual([resend.id, execution.id]);
    expect((await h.call('GET', `/v1/accounts/${a.accountId}/campaigns/${campaign.id}`, a.token)).json<{ data: Campaign }>().data).toMatchObject({
      executions: 2,
      lastJob: { id: resend.id },
    });

    // While the resend is pending, and once it has sent, the original has nothing left to resend.
    expect((await reportOf(a, execution.id)).resendable).toBe(0);
    expect(await runCampaignExecution(h.database.db, resend.id)).toBe('done');
    const sent = await h.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.jobId, resend.id))
      .orderBy(asc(messages.body));
    expect(sent.map((m) => m.body)).toEqual(['Hello Bob', 'Hello Cat', 'Hello Fay']);
    expect(await balanceOf(h.database.db, a.accountId)).toBe('9.9200');
    expect((await reportOf(a, execution.id)).resendable).toBe(0);
    const again = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).message).toBe(RESEND_NOTHING_MESSAGE);
    expect(await reportOf(a, resend.id)).toMatchObject({ statistics: [{ status: 'queued', count: 3, outgoing: true }], resendable: 0 });

    // Bob's second message fails too: he is the one left to resend, from either execution.
    await h.database.db.update(messages).set({ status: 'failed' }).where(eq(messages.id, (await messageTo(resend.id, get('Bob'))).id));
    expect((await reportOf(a, execution.id)).resendable).toBe(1);
    expect((await reportOf(a, resend.id)).resendable).toBe(1);
  });

  it('resends a file upload to the failed rows, keeping their row numbers and cells', async () => {
    const a = await account();
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, {
      trigger: 'FU',
      template: 'Hi {{{firstName}}}',
      fieldMappings: [
        { column: 'Phone', field: 'mobile' },
        { column: 'Name', field: 'firstName' },
      ],
    });
    const rows = [
      { Phone: uniqueSendingTestNumber(), Name: 'Ann' },
      { Phone: '', Name: 'Nobody' },
      { Phone: uniqueSendingTestNumber(), Name: 'Bob' },
    ];
    const res = await h.call('POST', `/v1/accounts/${a.accountId}/campaigns/${campaign.id}/execute`, a.token, rows);
    expect(res.statusCode, res.body).toBe(202);
    const execution = res.json<{ data: CampaignExecution }>().data;
    await runCampaignExecution(h.database.db, execution.id);
    const [bob] = await h.database.db.select().from(contacts).where(eq(contacts.mobileNumber, rows[2]?.Phone ?? ''));
    if (!bob) throw new Error('Bob was not imported');
    await h.database.db.update(messages).set({ status: 'failed' }).where(eq(messages.id, (await messageTo(execution.id, bob)).id));
    expect((await reportOf(a, execution.id)).job.invalid).toEqual([
      { reason: 'missingMobile', description: expect.any(String) as string, row: 2 },
    ]);

    const resent = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(resent.statusCode, resent.body).toBe(202);
    const resend = resent.json<{ data: CampaignExecution }>().data;
    expect(resend).toMatchObject({ recipients: 1, invalidCount: 0 });
    const recipientsOf = (jobId: string) =>
      queryRows<{ position: number; contact_id: string; data: unknown }>(
        h.database.db,
        sql`select position, contact_id, data from campaign_job_recipients where job_id = ${jobId} and contact_id = ${bob.id}`,
      );
    const [original] = await recipientsOf(execution.id);
    expect(original?.position).toBe(3);
    expect(await recipientsOf(resend.id)).toEqual([original]);
    await runCampaignExecution(h.database.db, resend.id);
    expect((await messageTo(resend.id, bob)).body).toBe('Hi Bob');
  });

  it('answers 400 when nothing failed, 409 while the execution sends, 402 when the balance does not cover the resend', async () => {
    const a = await account('0.0300');
    const people = [await addContact(h.database.db, a.accountId), await addContact(h.database.db, a.accountId), await addContact(h.database.db, a.accountId)];
    const campaign = await insertCampaign(h.database.db, a.accountId, a.numberId, { template: 'Hello' });
    const execution = await execute(a, campaign.id);

    const running = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(running.statusCode).toBe(409);
    expect(errorOf(running).message).toBe(RESEND_RUNNING_MESSAGE);

    expect(await runCampaignExecution(h.database.db, execution.id)).toBe('done');
    await h.database.db.update(messages).set({ status: 'delivered' }).where(eq(messages.jobId, execution.id));
    const nothing = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(nothing.statusCode).toBe(400);
    expect(errorOf(nothing).message).toBe(RESEND_NOTHING_MESSAGE);

    // The execution spent the whole balance; resending two messages would cost 0.0200.
    expect(await balanceOf(h.database.db, a.accountId)).toBe('0.0000');
    for (const person of people.slice(0, 2)) {
      await h.database.db.update(messages).set({ status: 'undelivered' }).where(eq(messages.id, (await messageTo(execution.id, person)).id));
    }
    expect((await reportOf(a, execution.id)).resendable).toBe(2);
    const short = await h.call('POST', resendUrl(a.accountId, execution.id), a.token);
    expect(short.statusCode).toBe(402);
    expect(short.json()).toEqual({ error: { code: 'bad_request', message: INSUFFICIENT_CREDIT_MESSAGE } });
    const [jobs] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from campaign_jobs where account_id = ${a.accountId}`);
    expect(jobs?.n).toBe(1);
    const [after] = await h.database.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(after?.executions).toBe(1);
  });
});
