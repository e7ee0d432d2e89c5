import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INSUFFICIENT_CREDIT_MESSAGE, moneyToUnits, unitsToMoney } from '@parley/shared';
import { CONTACT_BLOCKED_MESSAGE } from '../contacts/reachability.js';
import { queryRows, type Database, type Db } from '../../platform/db/client.js';
import {
  accountAttributes,
  accountTransactions,
  campaignJobRecipients,
  campaignJobs,
  campaigns,
  contacts,
  messages,
  phoneNumbers,
  type CampaignRow,
} from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { insertCampaign } from '../../test/campaigns.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { addContact, addPhoneNumber, balanceOf, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { NO_ACTIVE_NUMBER_MESSAGE } from '../messaging/index.js';
import { createExecutionIn } from './campaignExecutor.js';
import { previewCampaign } from './campaignPreview.js';
import { CONTACT_REMOVED_MESSAGE, runCampaignExecution, sendCampaignBatch } from './campaignSender.js';
import { debitAccount } from '../billing/ledger.js';

describe.each(testDatabaseKinds)('campaign executions on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  useLedgerCheckedDatabase(kind, (d) => (database = d), accounts);

  async function account(options: Parameters<typeof sendingAccount>[1] = {}): Promise<SendingAccount> {
    const a = await sendingAccount(database.db, options);
    accounts.push(a.accountId);
    return a;
  }

  const execute = (campaign: CampaignRow, userId: string | null = null) =>
    database.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(campaigns).where(eq(campaigns.id, campaign.id)).for('update');
      if (!locked) throw new Error('no campaign');
      return createExecutionIn(tx, locked, { userId });
    });

  const recipientsOf = (jobId: string) =>
    database.db.select().from(campaignJobRecipients).where(eq(campaignJobRecipients.jobId, jobId)).orderBy(asc(campaignJobRecipients.position));

  const jobMessages = (jobId: string) => database.db.select().from(messages).where(eq(messages.jobId, jobId)).orderBy(asc(messages.id));

  const debits = async (accountId: string): Promise<string> => {
    const [row] = await queryRows<{ total: string }>(
      database.db,
      sql`select coalesce(sum(amount), 0)::numeric(14,4)::text as total from account_transactions where account_id = ${accountId} and kind = 'debit'`,
    );
    return row?.total ?? '';
  };

  const jobOf = async (jobId: string) => {
    const [job] = await database.db.select().from(campaignJobs).where(eq(campaignJobs.id, jobId));
    if (!job) throw new Error('no job');
    return job;
  };

  it('charges exactly the estimate: tokens, segments, encodings and countries priced as the sender prices them', async () => {
    const a = await account({ balance: '50' });
    await database.db.insert(accountAttributes).values({ accountId: a.accountId, name: 'city' });
    const people: NonNullable<Parameters<typeof addContact>[2]>[] = [
      { firstName: 'Ann', attributes: { city: 'Paris' } },
      // A long name makes a second segment.
      { firstName: 'B'.repeat(140), attributes: {} },
      // An emoji makes the text UCS-2 (70 characters a segment).
      { firstName: 'Zoë 😀', attributes: { city: 'Łódź' } },
      { firstName: 'Gwen', mobileNumber: '+447400123456', mobileCountry: 'GB', attributes: {} },
      { firstName: 'Fleur', mobileNumber: '+33612345678', mobileCountry: 'FR', attributes: { city: 'Lyon' } },
    ];
    for (const p of people) await addContact(database.db, a.accountId, p);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, {
      template: 'Hello {{{firstName}}} from {{{city}}}! Our spring sale starts on Monday: show this text in store for 20% off.',
    });

    const preview = await previewCampaign(database.db, a.accountId, campaign.id);
    expect(preview).toMatchObject({ contacts: 5, insufficientCredit: false });
    const job = await execute(campaign);
    expect(job).toMatchObject({ status: 'running', recipients: 5, submitted: 0, invalid: [] });
    expect(await runCampaignExecution(database.db, job.id, { size: 2 })).toBe('done');

    const sent = await jobMessages(job.id);
    expect(sent).toHaveLength(5);
    const sum = unitsToMoney(sent.reduce((total, m) => total + moneyToUnits(m.price), 0n));
    expect(sum).toBe(preview.estimatedPrice);
    expect(await debits(a.accountId)).toBe(preview.estimatedPrice);
    expect(await jobOf(job.id)).toMatchObject({ status: 'done', submitted: 5, failures: 0, price: preview.estimatedPrice });
    expect(await balanceOf(database.db, a.accountId)).toBe(unitsToMoney(moneyToUnits('50') - moneyToUnits(preview.estimatedPrice)));
    // The pieces priced differently: more than one segment, UCS-2, GB's and DEFAULT's prices.
    const to = (mobile: string) => sent.find((m) => m.toNumber === mobile);
    expect(sent.some((m) => m.encoding === 'GSM-7' && m.segments > 1)).toBe(true);
    expect(sent.some((m) => m.encoding === 'UCS-2')).toBe(true);
    expect(to('+447400123456')?.price).toBe(unitsToMoney(400n * BigInt(to('+447400123456')?.segments ?? 0)));
    expect(to('+33612345678')?.price).toBe(unitsToMoney(700n * BigInt(to('+33612345678')?.segments ?? 0)));
    expect(to('+33612345678')?.body).toContain('Hello Fleur from Lyon!');
  });

  it('prices a text without tokens by country, and media as one MMS, leaving out a country without an MMS price', async () => {
    const a = await account({ balance: '20' });
    await addContact(database.db, a.accountId);
    await addContact(database.db, a.accountId);
    const gb = await addContact(database.db, a.accountId, { mobileNumber: '+447400123457', mobileCountry: 'GB' });
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, {
      template: 'Doors open at 9.',
      media: [{ url: 'https://example.test/a.png', type: 'image/png', filename: 'a.png' }],
    });
    const preview = await previewCampaign(database.db, a.accountId, campaign.id);
    expect(preview).toMatchObject({ contacts: 2, estimatedPrice: '0.0600', invalidCounts: { noPrice: 1, blocked: 0 } });
    const job = await execute(campaign);
    expect(job.invalid).toEqual([
      { reason: 'noPrice', description: 'Your plan has no MMS price for GB: send the message without media.', contact: { id: gb.id }, mobile: gb.mobileNumber, row: null },
    ]);
    await runCampaignExecution(database.db, job.id);
    expect(await debits(a.accountId)).toBe('0.0600');
    expect((await jobMessages(job.id)).map((m) => m.price)).toEqual(['0.0300', '0.0300']);
  });

  it("sends a campaign saved without a sender by the account's routing: each contact's last number, else the oldest", async () => {
    const a = await account({ balance: '5' });
    const newer = await addPhoneNumber(database.db, a.accountId, { createdAt: new Date('2025-01-01T00:00:00Z') });
    const regular = await addContact(database.db, a.accountId, { firstName: 'Rita', senderPhoneNumberId: newer.id });
    const stranger = await addContact(database.db, a.accountId, { firstName: 'Sol' });
    // What the API keeps for a campaign saved without phoneNumberFilter (campaignManager.ts).
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { phoneNumberFilter: {}, template: 'Hi {{{contact.firstName}}}' });
    const job = await execute(campaign);
    await runCampaignExecution(database.db, job.id);
    const sent = new Map((await jobMessages(job.id)).map((m) => [m.contactId, m]));
    expect(sent.get(regular.id)).toMatchObject({ phoneNumberId: newer.id, body: 'Hi Rita' });
    expect(sent.get(stranger.id)).toMatchObject({ phoneNumberId: a.numberId, body: 'Hi Sol' });
  });

  it('refuses to execute a campaign without a sender when the account has no active number, with the reason', async () => {
    const a = await account({ balance: '5' });
    await addContact(database.db, a.accountId);
    await database.db.update(phoneNumbers).set({ status: 'suspended' }).where(eq(phoneNumbers.accountId, a.accountId));
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { phoneNumberFilter: {} });
    await expect(execute(campaign)).rejects.toMatchObject({ statusCode: 400, message: NO_ACTIVE_NUMBER_MESSAGE });
  });

  it('refuses an execution the balance cannot cover with 402 Insufficient Credit and writes nothing', async () => {
    const a = await account({ balance: '0.0250' });
    for (let i = 0; i < 3; i += 1) await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    expect(await previewCampaign(database.db, a.accountId, campaign.id)).toMatchObject({ estimatedPrice: '0.0300', insufficientCredit: true });
    const error = await execute(campaign).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 402, message: INSUFFICIENT_CREDIT_MESSAGE });
    expect(await database.db.select().from(campaignJobs).where(eq(campaignJobs.accountId, a.accountId))).toEqual([]);
    const [after] = await database.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(after).toMatchObject({ executions: 0, lastJobId: null, lastExecutionAt: null });
    expect(await balanceOf(database.db, a.accountId)).toBe('0.0250');
  });

  it('resumes after a batch that died half way, and never sends anyone twice', async () => {
    const a = await account({ balance: '10' });
    for (let i = 0; i < 23; i += 1) await addContact(database.db, a.accountId, { firstName: `P${String(i)}` });
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId);
    const job = await execute(campaign);

    expect(await sendCampaignBatch(database.db, job.id, { size: 5 })).toBe('sent');
    // A batch that dies before its commit leaves nothing behind: no message, charge or mark.
    const crashed = database.db.transaction(async (tx) => {
      expect(await sendCampaignBatch(tx as unknown as Db, job.id, { size: 5 })).toBe('sent');
      throw new Error('the process died');
    });
    await expect(crashed).rejects.toThrow('the process died');
    expect(await jobMessages(job.id)).toHaveLength(5);
    expect((await recipientsOf(job.id)).filter((r) => r.messageId !== null).map((r) => r.position)).toEqual([1, 2, 3, 4, 5]);

    // Two runners at once (a retry beside the sweep's job) share the rest and finish it.
    const outcomes = await Promise.all([
      runCampaignExecution(database.db, job.id, { size: 4 }),
      runCampaignExecution(database.db, job.id, { size: 4 }),
    ]);
    expect(outcomes).toContain('done');
    // And a run after the end finds nothing to do.
    expect(await runCampaignExecution(database.db, job.id, { size: 4 })).toBe('finished');

    const sent = await jobMessages(job.id);
    expect(sent).toHaveLength(23);
    expect(new Set(sent.map((m) => m.contactId)).size).toBe(23);
    const recipients = await recipientsOf(job.id);
    expect(recipients.every((r) => r.messageId !== null && r.error === null)).toBe(true);
    expect(new Set(recipients.map((r) => r.messageId))).toEqual(new Set(sent.map((m) => m.id)));
    expect(await jobOf(job.id)).toMatchObject({ status: 'done', submitted: 23, failures: 0, price: '0.2300' });
    expect(await debits(a.accountId)).toBe('0.2300');
    // One debit per committed batch, each under its own key.
    const entries = await database.db
      .select({ key: accountTransactions.idempotencyKey })
      .from(accountTransactions)
      .where(and(eq(accountTransactions.accountId, a.accountId), eq(accountTransactions.kind, 'debit')));
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
  });

  it('sends batches side by side (inFlight): everyone once, in one debit a batch, charged exactly', async () => {
    const a = await account({ balance: '10' });
    for (let i = 0; i < 23; i += 1) await addContact(database.db, a.accountId, { firstName: `Q${String(i)}` });
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const job = await execute(campaign);

    expect(await runCampaignExecution(database.db, job.id, { size: 4, inFlight: 3 })).toBe('done');
    const sent = await jobMessages(job.id);
    expect(sent).toHaveLength(23);
    expect(new Set(sent.map((m) => m.contactId)).size).toBe(23);
    const recipients = await recipientsOf(job.id);
    expect(new Set(recipients.map((r) => r.messageId))).toEqual(new Set(sent.map((m) => m.id)));
    expect(await jobOf(job.id)).toMatchObject({ status: 'done', submitted: 23, failures: 0, price: '0.2300' });
    const entries = await database.db
      .select({ key: accountTransactions.idempotencyKey, amount: accountTransactions.amount })
      .from(accountTransactions)
      .where(and(eq(accountTransactions.accountId, a.accountId), eq(accountTransactions.kind, 'debit')));
    // Six batches (4 + 4 + 4 + 4 + 4 + 3), each under its own key.
    expect(entries).toHaveLength(6);
    expect(new Set(entries.map((e) => e.key)).size).toBe(6);
    expect(await debits(a.accountId)).toBe('0.2300');
    expect(await balanceOf(database.db, a.accountId)).toBe('9.7700');
  });

  it('stops every batch in flight when the balance runs out, keeping what was sent and charged', async () => {
    const a = await account({ balance: '0.0900' });
    for (let i = 0; i < 9; i += 1) await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const job = await execute(campaign);
    // Something else spends most of the balance after the execution began: two messages' worth is left.
    await database.db.transaction((tx) => debitAccount(tx, { accountId: a.accountId, amount: '0.0700', description: 'Elsewhere' }));

    expect(await runCampaignExecution(database.db, job.id, { size: 1, inFlight: 3 })).toBe('finished');
    const after = await jobOf(job.id);
    expect(after).toMatchObject({ status: 'failed', submitted: 2, failures: 7, price: '0.0200', errorDescription: INSUFFICIENT_CREDIT_MESSAGE });
    expect(await jobMessages(job.id)).toHaveLength(2);
    expect(await balanceOf(database.db, a.accountId)).toBe('0.0000');
  });

  it('goes on past contacts who can no longer be texted, and records why', async () => {
    const a = await account({ balance: '10' });
    const people = [];
    for (let i = 0; i < 6; i += 1) people.push(await addContact(database.db, a.accountId));
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const job = await execute(campaign);
    const [blocked, removed] = [people[1], people[4]];
    if (!blocked || !removed) throw new Error('no people');
    await database.db.update(contacts).set({ blockedAt: new Date() }).where(eq(contacts.id, blocked.id));
    await database.db.delete(contacts).where(eq(contacts.id, removed.id));

    expect(await runCampaignExecution(database.db, job.id, { size: 2 })).toBe('done');
    const recipients = await recipientsOf(job.id);
    expect(recipients.filter((r) => r.error !== null).map((r) => [r.contactId, r.error])).toEqual([
      [blocked.id, CONTACT_BLOCKED_MESSAGE],
      [removed.id, CONTACT_REMOVED_MESSAGE],
    ]);
    expect(await jobMessages(job.id)).toHaveLength(4);
    expect(await jobOf(job.id)).toMatchObject({ status: 'done', submitted: 4, failures: 2, price: '0.0400' });
  });

  it('stops with Insufficient Credit when the balance runs out during the run, keeping what was sent', async () => {
    const a = await account({ balance: '1' });
    for (let i = 0; i < 6; i += 1) await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const job = await execute(campaign);
    expect(await sendCampaignBatch(database.db, job.id, { size: 2 })).toBe('sent');
    // Something else spends the balance meanwhile.
    await database.db.transaction((tx) => debitAccount(tx, { accountId: a.accountId, amount: '0.9750', description: 'Elsewhere' }));

    expect(await runCampaignExecution(database.db, job.id, { size: 2 })).toBe('finished');
    expect(await jobOf(job.id)).toMatchObject({ status: 'failed', submitted: 2, failures: 4, errorDescription: INSUFFICIENT_CREDIT_MESSAGE });
    const recipients = await recipientsOf(job.id);
    expect(recipients.map((r) => r.error)).toEqual([null, null, ...Array<string>(4).fill(INSUFFICIENT_CREDIT_MESSAGE)]);
    expect(await balanceOf(database.db, a.accountId)).toBe('0.0050');
  });

  it("holds campaign messages until the recipient's quiet hours end", async () => {
    const now = new Date();
    // A window that is closed now in the recipients' zone (San Francisco numbers): it opens in 6 hours.
    const local = new Date(now.toLocaleString('en-US', { timeZone: 'America/Los_Angeles' }));
    const at = (hours: number): string => {
      const d = new Date(local.getTime() + hours * 3_600_000);
      return `${String(d.getHours()).padStart(2, '0')}:00`;
    };
    const a = await account({ balance: '10', quietHours: { enabled: true, start: at(6), end: at(8) } });
    await addContact(database.db, a.accountId);
    const campaign = await insertCampaign(database.db, a.accountId, a.numberId, { template: 'Hello' });
    const job = await execute(campaign);
    await runCampaignExecution(database.db, job.id);
    const [message] = await jobMessages(job.id);
    expect(message?.timeZone).toBe('America/Los_Angeles');
    expect(message?.sendAfter.getTime()).toBeGreaterThan(now.getTime() + 4 * 3_600_000);
  });
});
