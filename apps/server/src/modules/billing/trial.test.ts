import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TRIAL_EXPIRED_MESSAGE, type Account } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { accounts, contacts } from '../../platform/db/schema/index.js';
import { ledgerAndBalance } from '../../test/accounts.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { ensureTestPlan } from '../../test/factories.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { addContact, balanceOf, messagingCounts, sendingAccount, type SendingAccount } from '../../test/sendingFixtures.js';
import { checkNumberType } from '../contacts/contactNumberType.js';
import { debitAccount, INSUFFICIENT_BALANCE_MESSAGE, TrialExpiredError } from './ledger.js';
import { seedPlans } from './plans.js';
import { addSandboxCard } from './test/sandboxCards.js';
import { deliverSandboxEvents } from './payments/sandbox/delivery.js';

const DAY = 24 * 60 * 60 * 1000;
const TRIAL_TEST_PLAN = 'trial-test-plan';

/** A sending account moved onto a trial plan created `daysAgo` days ago. */
async function trialAccount(db: Db, daysAgo: number, balance = '10'): Promise<SendingAccount> {
  const account = await sendingAccount(db, { balance });
  await ensureTestPlan(db, TRIAL_TEST_PLAN, true);
  await db
    .update(accounts)
    .set({ planId: TRIAL_TEST_PLAN, createdAt: new Date(Date.now() - daysAgo * DAY) })
    .where(eq(accounts.id, account.accountId));
  return account;
}

const debit = (db: Db, accountId: string, now?: Date) =>
  db.transaction((tx) => debitAccount(tx, { accountId, amount: '0.0100', description: 'Test charge', ...(now === undefined ? {} : { now }) }));

describe.each(testDatabaseKinds)('trial expiry on %s', (kind) => {
  const { h } = useRouteHarness(kind, { seed: seedPlans });

  it('charges a trial until created + 15 days, then refuses with trial_expired and changes nothing', async () => {
    const db = h.database.db;
    const open = await trialAccount(db, 14);
    await expect(debit(db, open.accountId)).resolves.toMatchObject({ duplicate: false, balanceAfter: '9.9900' });
    // The same account on a clock 1 day and 1 minute later: its trial has run out.
    const later = new Date(Date.now() + DAY + 60_000);
    const refused = await debit(db, open.accountId, later).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TrialExpiredError);
    expect(refused).toMatchObject({ statusCode: 402, code: 'trial_expired', message: TRIAL_EXPIRED_MESSAGE });
    expect(await balanceOf(db, open.accountId)).toBe('9.9900');

    const expired = await trialAccount(db, 16);
    await expect(debit(db, expired.accountId)).rejects.toBeInstanceOf(TrialExpiredError);
    const sums = await ledgerAndBalance(db, expired.accountId);
    expect(sums).toEqual({ ledger: '10.0000', balance: '10.0000' });
    // An expired trial with no money says so too: the trial is the reason, not the balance.
    const empty = await trialAccount(db, 20, '0');
    await expect(debit(db, empty.accountId)).rejects.toBeInstanceOf(TrialExpiredError);
    // A paid plan has no trial: an old account on it pays as ever, and runs out of balance as ever.
    const paid = await sendingAccount(db, { balance: '0.0100' });
    await db.update(accounts).set({ createdAt: new Date(Date.now() - 400 * DAY) }).where(eq(accounts.id, paid.accountId));
    await expect(debit(db, paid.accountId)).resolves.toMatchObject({ balanceAfter: '0.0000' });
    await expect(debit(db, paid.accountId)).rejects.toMatchObject({ code: 'bad_request', message: INSUFFICIENT_BALANCE_MESSAGE });
  });

  it('skips the number-type lookup of an expired trial (the contact is kept without a type)', async () => {
    const db = h.database.db;
    const expired = await trialAccount(db, 16);
    const contact = await addContact(db, expired.accountId);
    expect(await db.transaction((tx) => checkNumberType(tx, expired.accountId, contact.id, contact.mobileNumber))).toBe(false);
    const [row] = await db.select({ numberType: contacts.numberType }).from(contacts).where(eq(contacts.id, contact.id));
    expect(row?.numberType).toBeNull();
    expect(await balanceOf(db, expired.accountId)).toBe('10.0000');
  });

  it('refuses sends of an expired trial with 402 trial_expired; reading and exports still answer', async () => {
    const db = h.database.db;
    const expired = await trialAccount(db, 16);
    const token = h.tokenFor(expired.adminId);
    const contact = await addContact(db, expired.accountId);
    const send = await h.call('POST', `/v1/accounts/${expired.accountId}/messages`, token, { contacts: [contact.id], template: 'Hi' });
    expect(send.statusCode, send.body).toBe(402);
    expect(send.json()).toEqual({ error: { code: 'trial_expired', message: TRIAL_EXPIRED_MESSAGE } });
    expect(await messagingCounts(db, expired.accountId)).toMatchObject({ messages: 0 });
    expect(await balanceOf(db, expired.accountId)).toBe('10.0000');

    const account = await h.call('GET', `/v1/accounts/${expired.accountId}`, token);
    expect(account.statusCode).toBe(200);
    expect(account.json<{ data: Account }>().data.trial).toMatchObject({ daysLeft: 0, expired: true });
    expect((await h.call('GET', `/v1/accounts/${expired.accountId}/contacts`, token)).statusCode).toBe(200);
    expect((await h.call('GET', `/v1/accounts/${expired.accountId}/charges`, token)).statusCode).toBe(200);
    const optOuts = await h.call('GET', `/v1/accounts/${expired.accountId}/reports/optout`, token);
    expect(optOuts.statusCode).toBe(200);
    expect(optOuts.headers['content-type']).toContain('text/csv');

    // A trial with a day left sends.
    const open = await trialAccount(db, 14);
    const other = await addContact(db, open.accountId);
    const sent = await h.call('POST', `/v1/accounts/${open.accountId}/messages`, h.tokenFor(open.adminId), { contacts: [other.id], template: 'Hi' });
    expect(sent.statusCode, sent.body).toBe(200);
  });

  it('lifts at once when a plan is chosen: the send refused before goes once the provider confirms the plan', async () => {
    const db = h.database.db;
    const expired = await trialAccount(db, 30);
    const token = h.tokenFor(expired.adminId);
    const contact = await addContact(db, expired.accountId);
    const body = { contacts: [contact.id], template: 'Back again' };
    expect((await h.call('POST', `/v1/accounts/${expired.accountId}/messages`, token, body)).statusCode).toBe(402);

    await addSandboxCard(h, expired.accountId, token);
    const change = await h.call('PUT', `/v1/accounts/${expired.accountId}/plan`, token, { id: 'starter', segmentUnderstanding: new Date().toISOString() });
    expect(change.statusCode, change.body).toBe(200);
    await deliverSandboxEvents(db);
    const sent = await h.call('POST', `/v1/accounts/${expired.accountId}/messages`, token, body);
    expect(sent.statusCode, sent.body).toBe(200);
    const account = await h.call('GET', `/v1/accounts/${expired.accountId}`, token);
    expect(account.json<{ data: Account }>().data).toMatchObject({ plan: { id: 'starter', isTrial: false } });
    expect(account.json<{ data: Account }>().data.trial).toBeUndefined();
  });
});
