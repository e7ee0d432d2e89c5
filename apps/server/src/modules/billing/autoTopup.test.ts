import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { moneyToUnits, unitsToMoney } from '@parley/shared';
import { accountTransactions, billingPayments } from '../../platform/db/schema/index.js';
import { createLocalMailbox } from '../../platform/mail/localMailbox.js';
import { ledgerAndBalance } from '../../test/accounts.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { mailsTo } from '../../test/mail.js';
import { useRouteHarness } from '../../test/routeHarness.js';
import { addContact, sendingAccount } from '../../test/sendingFixtures.js';
import { sendMessages } from '../messaging/index.js';
import { autoTopupOf } from './autoTopup.js';
import { creditAccount, debitAccount } from './ledger.js';
import { SandboxProvider } from './payments/sandbox/sandboxProvider.js';
import { settleBilling } from './settlement.js';
import { addSandboxCard } from './test/sandboxCards.js';

describe.each(testDatabaseKinds)('auto top-up on %s', (kind) => {
  const { h } = useRouteHarness(kind);

  /** An account with a card and the rule 'below 10, top up by 20', its balance as given. */
  const ruled = async (balance: string, card?: string) => {
    const account = await sendingAccount(h.database.db, { balance });
    const token = h.tokenFor(account.adminId);
    await addSandboxCard(h, account.accountId, token, card);
    const rule = await h.call('POST', `/v1/accounts/${account.accountId}/autotopup`, token, { below: 10, amount: 20 });
    expect(rule.statusCode, rule.body).toBe(200);
    expect(rule.json()).toEqual({ data: { autotopup: { below: '10.0000', amount: '20.0000' }, stopped: false } });
    return { ...account, token };
  };
  const sendOne = (account: { accountId: string; adminId: string }, contactId: string) =>
    sendMessages(h.database.db, { accountId: account.accountId, actor: { kind: 'user', userId: account.adminId }, contactIds: [contactId], template: 'Hello' });
  const settle = () => settleBilling({ db: h.database.db, mailer: createLocalMailbox(h.database.db), log: silentLogger() }, new SandboxProvider(h.database.db));
  const autoTopups = (accountId: string) =>
    h.database.db.select().from(billingPayments).where(and(eq(billingPayments.accountId, accountId), eq(billingPayments.purpose, 'autoTopup')));

  it('100 parallel sends crossing the threshold schedule exactly one top-up, credited once when the provider confirms', async () => {
    const account = await ruled('10.5000');
    const contacts = await Promise.all(Array.from({ length: 100 }, (_, i) => addContact(h.database.db, account.accountId, { mobileNumber: `+1212555${String(1000 + i)}` })));
    const results = await Promise.allSettled(contacts.map((c) => sendOne(account, c.id)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '9.5000', balance: '9.5000' });
    const scheduled = await autoTopups(account.accountId);
    expect(scheduled.map((p) => [p.status, p.amount])).toEqual([['processing', '20.0000']]);

    await settle();
    await settle();
    expect(await ledgerAndBalance(h.database.db, account.accountId)).toEqual({ ledger: '29.5000', balance: '29.5000' });
    const credits = await h.database.db
      .select()
      .from(accountTransactions)
      .where(and(eq(accountTransactions.accountId, account.accountId), eq(accountTransactions.description, 'Auto top-up')));
    expect(credits).toHaveLength(1);
    expect((await autoTopups(account.accountId)).map((p) => p.status)).toEqual(['succeeded']);
  });

  it('does nothing when off, and at most 5 in 24 hours', async () => {
    const off = await sendingAccount(h.database.db, { balance: '10.0050' });
    await addSandboxCard(h, off.accountId, h.tokenFor(off.adminId));
    await sendOne(off, (await addContact(h.database.db, off.accountId)).id);
    expect(await autoTopups(off.accountId)).toEqual([]);

    const account = await ruled('10.0050');
    const contact = await addContact(h.database.db, account.accountId);
    for (let round = 0; round < 6; round++) {
      // Back to just above the threshold (the last top-up took it higher), then a send takes it under again.
      const { balance } = await ledgerAndBalance(h.database.db, account.accountId);
      const excess = moneyToUnits(balance) - moneyToUnits('10.0050');
      if (excess > 0n) {
        await h.database.db.transaction((tx) => debitAccount(tx, { accountId: account.accountId, amount: unitsToMoney(excess), description: 'Test charge' }));
      }
      await sendOne(account, contact.id);
      await settle();
    }
    expect((await autoTopups(account.accountId)).length).toBe(5);
  });

  it('stops on a declined card and tells the administrators by e-mail', async () => {
    const account = await ruled('10.0050', '4000 0000 0000 0341');
    await sendOne(account, (await addContact(h.database.db, account.accountId)).id);
    await settle();
    expect((await autoTopups(account.accountId)).map((p) => [p.status, p.error])).toEqual([['failed', 'Your card was declined.']]);
    const rule = await h.call('GET', `/v1/accounts/${account.accountId}/autotopup`, account.token);
    expect(rule.json()).toEqual({ data: { autotopup: { below: '10.0000', amount: '20.0000' }, stopped: true } });
    const [mail] = await mailsTo(h.database.db, `sender-${account.adminId}@example.test`);
    expect(mail?.subject).toMatch(/^Auto top-up failed/);
    expect(mail?.text).toContain('Your card was declined.');
    // Stopped: the next crossing schedules nothing.
    await h.database.db.transaction((tx) => creditAccount(tx, { accountId: account.accountId, amount: '1.0000', description: 'Test credit' }));
    await sendOne(account, (await addContact(h.database.db, account.accountId)).id);
    expect(await autoTopups(account.accountId)).toHaveLength(1);
    expect((await ledgerAndBalance(h.database.db, account.accountId)).ledger).toBe((await ledgerAndBalance(h.database.db, account.accountId)).balance);
  });

  it('takes only the listed amounts, needs a card, and is for administrators', async () => {
    const account = await sendingAccount(h.database.db, { balance: '0' });
    const token = h.tokenFor(account.adminId);
    const noCard = await h.call('PUT', `/v1/accounts/${account.accountId}/autotopup`, token, { below: 10, amount: 20 });
    expect(noCard.statusCode).toBe(402);
    await addSandboxCard(h, account.accountId, token);
    const odd = await h.call('PUT', `/v1/accounts/${account.accountId}/autotopup`, token, { below: 11, amount: 20 });
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toContain('Choose one of the listed amounts');
    // An empty 'below' is not read as the $0 option.
    const empty = await h.call('PUT', `/v1/accounts/${account.accountId}/autotopup`, token, { below: '', amount: 20 });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Required');
    expect((await autoTopupOf(h.database.db, account.accountId)).rule).toBeNull();
    expect((await h.call('PUT', `/v1/accounts/${account.accountId}/autotopup`, token, { below: '0', amount: '2000' })).statusCode).toBe(200);
    const removed = await h.call('DELETE', `/v1/accounts/${account.accountId}/autotopup`, token);
    expect(removed.json()).toEqual({ data: { autotopup: null, stopped: false } });
  });
});
