import { randomUUID } from 'node:crypto';
import { DEPLOYMENT_SIMULATOR } from '../carriers/registry.js';
import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { AUTO_RESPONDER_EVENT_TYPE } from '@parley/shared';
import type { InboundMessage } from '../carriers/carrier.js';
import { creditAccount } from '../billing/ledger.js';
import { sendMessages } from './messageSender.js';
import { queryRows, type Database } from '../../platform/db/client.js';
import { autoResponders, messages, type MessageRow } from '../../platform/db/schema/index.js';
import { ledgerAndBalance, outboxEvents } from '../../test/accounts.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { createAccount, ensureTestPlan } from '../../test/factories.js';
import { addContact } from '../../test/sendingFixtures.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';
import { captureLogger, silentLogger } from '../../test/logger.js';
import { autoReplyChargeKey } from './autoResponderCharge.js';
import { createSendingSetup, type SendingSetup } from './test/dispatcherFixtures.js';
import { receiveInbound } from './inbound.js';
import { KEYWORD_REPLY_EVENT_TYPES } from './keywords.js';

describe.each(testDatabaseKinds)('auto responders answering inbound messages on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  const log = silentLogger();

  // Whatever a test did, every account's balance is still the sum of its ledger.
  useLedgerCheckedDatabase(kind, (opened) => (database = opened), accounts);

  async function setup(options: Parameters<typeof createSendingSetup>[1] = {}): Promise<SendingSetup> {
    const made = await createSendingSetup(database.db, { carrier: 'simulator', ...options });
    accounts.push(made.accountId);
    return made;
  }

  let clock = Date.now() - 3_600_000;
  /** Responders in the order given: each a little older than the next. */
  async function addResponders(accountId: string, ...responders: { match: string; response: string; advanced?: boolean }[]): Promise<string[]> {
    const ids: string[] = [];
    for (const responder of responders) {
      clock += 1000;
      const id = uuidv7();
      await database.db.insert(autoResponders).values({ id, accountId, advanced: false, ...responder, createdAt: new Date(clock) });
      ids.push(id);
    }
    return ids;
  }

  const incoming = (s: SendingSetup, text: string, carrierMessageId = randomUUID()): InboundMessage => ({
    carrierMessageId,
    from: s.contactNumber,
    to: s.number,
    text,
    media: [],
    receivedAt: new Date(),
  });

  const receive = async (message: InboundMessage, now?: Date) => {
    const result = await receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log, now);
    if (result.outcome !== 'received') throw new Error(`not received: ${result.outcome}`);
    return result;
  };

  const repliesTo = async (contactId: string): Promise<MessageRow[]> =>
    database.db
      .select()
      .from(messages)
      .where(sql`${messages.contactId} = ${contactId} and ${messages.replyToId} is not null`)
      .orderBy(messages.createdAt, messages.id);

  const ledger = (accountId: string) =>
    queryRows<{ kind: string; amount: string; description: string; idempotency_key: string | null }>(
      database.db,
      sql`select kind, amount::text, description, idempotency_key from account_transactions where account_id = ${accountId} order by created_at, id`,
    );

  it('answers a matching message on its conversation, from the number written to, charged like any message', async () => {
    const s = await setup({ balance: '1' });
    await database.db.execute(sql`update contacts set first_name = 'Ada' where id = ${s.contactId}`);
    await addResponders(s.accountId, { match: 'price', response: 'Hi {{{firstName}}}{{{unknown}}}, our prices are at example.test' });

    const inbound = await receive(incoming(s, "What's the PRICE?"));
    expect(inbound.keyword).toBeNull();
    const [reply, ...more] = await repliesTo(s.contactId);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({
      direction: 'outbound',
      status: 'queued',
      conversationId: inbound.message.conversationId,
      phoneNumberId: s.phoneNumberId,
      fromNumber: s.number,
      toNumber: s.contactNumber,
      body: 'Hi Ada, our prices are at example.test',
      encoding: 'GSM-7',
      segments: 1,
      price: '0.0100',
      replyToId: inbound.message.id,
      eventType: AUTO_RESPONDER_EVENT_TYPE,
      timeZone: null,
      createdByUserId: null,
    });
    expect(await ledger(s.accountId)).toEqual([
      { kind: 'credit', amount: '1.0000', description: 'Test credit', idempotency_key: null },
      { kind: 'debit', amount: '0.0100', description: `Auto reply to ${s.contactNumber}`, idempotency_key: autoReplyChargeKey(inbound.message.id) },
    ]);
    expect(await ledgerAndBalance(database.db, s.accountId)).toEqual({ ledger: '0.9900', balance: '0.9900' });
    expect(await outboxEvents(database.db, 'messageSent', s.accountId)).toEqual([
      { data: { message: expect.objectContaining({ id: reply?.id, price: 0.01, eventType: AUTO_RESPONDER_EVENT_TYPE }) as unknown } },
    ]);
    const [conversation] = await queryRows<{ last_message_id: string }>(
      database.db,
      sql`select last_message_id from conversations where id = ${inbound.message.conversationId}`,
    );
    expect(conversation?.last_message_id).toBe(reply?.id);

    // A text that does not match gets nothing and costs nothing.
    await receive(incoming(s, 'priceless advice'));
    expect(await repliesTo(s.contactId)).toHaveLength(1);
    expect((await ledgerAndBalance(database.db, s.accountId)).balance).toBe('0.9900');
  });

  it('prices a long response by its segments', async () => {
    const s = await setup();
    await addResponders(s.accountId, { match: String.raw`^menu\b`, response: 'x'.repeat(200), advanced: true });
    await receive(incoming(s, 'Menu please'));
    expect(await repliesTo(s.contactId)).toEqual([expect.objectContaining({ segments: 2, price: '0.0200' })]);
  });

  it('sends nothing, and charges nothing, when the response renders empty for the contact', async () => {
    const s = await setup();
    await addResponders(s.accountId, { match: 'name', response: '{{{firstName}}} ' });
    const captured = captureLogger();
    await receiveInbound(database, DEPLOYMENT_SIMULATOR, incoming(s, 'my name?'), captured.log);
    expect(await repliesTo(s.contactId)).toEqual([]);
    expect((await ledger(s.accountId)).filter((e) => e.kind === 'debit')).toEqual([]);
    expect(captured.lines).toEqual([expect.objectContaining({ msg: 'auto reply not sent: the response is empty for this contact', accountId: s.accountId })]);
  });

  it('answers once per inbound message: the oldest matching responder, and never again on a redelivery', async () => {
    const s = await setup();
    await addResponders(
      s.accountId,
      { match: 'hours', response: 'Hours: 9 to 5' },
      { match: String.raw`open|price`, response: 'Pattern first', advanced: true },
      { match: 'price', response: 'Simple later' },
    );
    const message = incoming(s, 'Price and opening times?');
    const first = await receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log);
    const again = await receiveInbound(database, DEPLOYMENT_SIMULATOR, message, log);
    expect(first.outcome).toBe('received');
    expect(again.outcome).toBe('duplicate');
    expect((await repliesTo(s.contactId)).map((r) => r.body)).toEqual(['Pattern first']);

    // Delivered twice at the same moment: still one reply and one charge.
    const twice = incoming(s, 'hours?');
    const results = await Promise.all([receiveInbound(database, DEPLOYMENT_SIMULATOR, twice, log), receiveInbound(database, DEPLOYMENT_SIMULATOR, twice, log)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['duplicate', 'received']);
    expect((await repliesTo(s.contactId)).map((r) => r.body)).toEqual(['Pattern first', 'Hours: 9 to 5']);
    expect((await ledger(s.accountId)).filter((e) => e.kind === 'debit')).toHaveLength(2);
  });

  it('gives STOP only its opt-out confirmation, and an opted-out or blocked contact nothing', async () => {
    const s = await setup();
    await addResponders(s.accountId, { match: 'stop', response: 'Auto: stop' }, { match: '.*', response: 'Auto: anything', advanced: true });
    const stop = await receive(incoming(s, 'STOP'));
    expect(stop.keyword).toMatchObject({ keyword: { kind: 'optOut' }, changed: true });
    expect((await repliesTo(s.contactId)).map((r) => [r.eventType, r.price])).toEqual([[KEYWORD_REPLY_EVENT_TYPES.optOut, '0.0000']]);
    // Opted out now: a message that would match gets no reply.
    await receive(incoming(s, 'hello again'));
    expect(await repliesTo(s.contactId)).toHaveLength(1);

    const blocked = await setup();
    await addResponders(blocked.accountId, { match: '.*', response: 'Auto: anything', advanced: true });
    await database.db.execute(sql`update contacts set blocked_at = now() where id = ${blocked.contactId}`);
    await receive(incoming(blocked, 'hello'));
    expect(await repliesTo(blocked.contactId)).toEqual([]);
    expect((await ledger(s.accountId)).concat(await ledger(blocked.accountId)).filter((e) => e.kind === 'debit')).toEqual([]);
  });

  it('sends nothing when the balance cannot cover the reply, and still receives the message', async () => {
    const s = await setup({ balance: '0' });
    await addResponders(s.accountId, { match: 'hours', response: 'Hours: 9 to 5' });
    const captured = captureLogger();
    const result = await receiveInbound(database, DEPLOYMENT_SIMULATOR, incoming(s, 'hours?'), captured.log);
    if (result.outcome !== 'received') throw new Error(result.outcome);
    const inbound = result;
    expect(captured.lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'auto reply not sent: the balance cannot cover it', accountId: s.accountId, inboundMessageId: inbound.message.id }),
    ]);
    expect(inbound.message).toMatchObject({ status: 'received', body: 'hours?' });
    expect(await repliesTo(s.contactId)).toEqual([]);
    expect(await ledger(s.accountId)).toEqual([]);
    expect(await outboxEvents(database.db, 'messageReceived', s.accountId)).toHaveLength(1);
    expect(await outboxEvents(database.db, 'messageSent', s.accountId)).toEqual([]);
  });

  it('answers at once at night: quiet hours do not hold a reply to what the contact just sent', async () => {
    const s = await setup({ quietHours: { enabled: true, start: '08:00', end: '21:00' } });
    await addResponders(s.accountId, { match: 'hours', response: 'Hours: 9 to 5' });
    // 03:00 in Washington (the contact's +1 202 number).
    const night = new Date('2025-01-15T08:00:00Z');
    await receive(incoming(s, 'hours'), night);
    const [reply] = await repliesTo(s.contactId);
    expect(reply?.sendAfter).toEqual(night);
    // A message to a Washington contact who has not written waits for the morning (docs/messaging.md, Quiet hours).
    const silent = await addContact(database.db, s.accountId, { mobileNumber: '+12025550187' });
    const held = await sendMessages(database.db, { accountId: s.accountId, actor: { kind: 'system' }, contactIds: [silent.id], template: 'Hi', now: night });
    expect(held.messages[0]?.sendAfter).toEqual(new Date('2025-01-15T13:00:00Z'));
    expect(held.messages[0]?.timeZone).toBe('America/New_York');
    // Without a time zone the dispatcher never holds it back at claim time either.
    expect(reply?.timeZone).toBeNull();
  });

  it('gives no reply on a trial plan', async () => {
    const planId = await ensureTestPlan(database.db, 'test-trial', true);
    const account = await createAccount(database.db, {}, { planId });
    await database.db.transaction((tx) => creditAccount(tx, { accountId: account.id, amount: '10', description: 'Trial credit' }));
    const s = await setup({ accountId: account.id });
    await addResponders(s.accountId, { match: 'hours', response: 'Hours: 9 to 5' });
    await receive(incoming(s, 'hours'));
    expect(await repliesTo(s.contactId)).toEqual([]);
  });
});
