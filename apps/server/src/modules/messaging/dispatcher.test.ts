import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SubmitResult } from '../carriers/carrier.js';
import type { Database } from '../../platform/db/client.js';
import { queryRows } from '../../platform/db/client.js';
import { ledgerAndBalance, outboxEvents } from '../../test/accounts.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { silentLogger } from '../../test/logger.js';
import { MessageDispatcher } from './dispatcher.js';
import {
  createSendingSetup,
  messageRows,
  queueTestMessages,
  RecordingCarrier,
  registryOf,
  type SendingSetup,
} from './test/dispatcherFixtures.js';
import { UNKNOWN_OUTCOME_CODE } from './dispatcherRecovery.js';
import { retryDelayMs } from './dispatcherResults.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';

const throttled: SubmitResult = { accepted: false, retryable: true, errorCode: '0x00000058', errorText: 'ESME_RTHROTTLED' };
const invalidDestination: SubmitResult = { accepted: false, retryable: false, errorCode: '0x0000000B', errorText: 'ESME_RINVDSTADR' };

describe.each(testDatabaseKinds)('message dispatcher on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  let now: Date;
  const clock = () => now;

  // Whatever a test did, every account's balance is still the sum of its ledger.
  useLedgerCheckedDatabase(kind, (opened) => (database = opened), accounts);

  async function setup(options: Parameters<typeof createSendingSetup>[1] = {}): Promise<SendingSetup> {
    now = new Date();
    const made = await createSendingSetup(database.db, options);
    accounts.push(made.accountId);
    return made;
  }

  const dispatcher = (carrier: RecordingCarrier, options: Partial<ConstructorParameters<typeof MessageDispatcher>[0]> = {}) =>
    new MessageDispatcher({ database, carriers: registryOf(carrier), log: silentLogger(), clock, ...options });

  const balanceOf = async (accountId: string) => (await ledgerAndBalance(database.db, accountId)).balance;

  it('claims due messages, submits each once and records them sent with the carrier id and a messageStatus event', async () => {
    const s = await setup({ carrier: 'smpp' });
    const ids = await queueTestMessages(database.db, s, { count: 3, body: 'It is ready' });
    const carrier = new RecordingCarrier('smpp', (m) => ({ accepted: true, carrierMessageId: `smsc-${m.id}` }));
    const round = await dispatcher(carrier).dispatchOnce();
    expect(round).toMatchObject({ claimed: 3, sent: 3, failed: 0, retried: 0 });
    expect(carrier.submits.map((m) => m.id)).toEqual(ids);
    expect(carrier.submits[0]).toMatchObject({ from: s.number, to: s.contactNumber, text: 'It is ready', segments: 1, encoding: 'GSM-7' });
    const rows = await messageRows(database.db, ids);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'sent', carrier: 'smpp', carrierMessageId: `smsc-${row.id}`, attempts: 1, claimedAt: null });
      expect(row.sentAt?.getTime()).toBe(now.getTime());
    }
    const events = await outboxEvents(database.db, 'messageStatus', s.accountId);
    expect(events.map((e) => (e.data as { message: { id: string; status: string } }).message)).toEqual(
      ids.map((id): unknown => expect.objectContaining({ id, status: 'sent' })),
    );
    // Nothing is left to claim.
    expect((await dispatcher(carrier).dispatchOnce()).claimed).toBe(0);
    expect(carrier.duplicates()).toEqual([]);
  });

  it('uses sendMany when the carrier has it', async () => {
    const s = await setup({ carrier: 'smpp' });
    const ids = await queueTestMessages(database.db, s, { count: 4 });
    const carrier = new RecordingCarrier('smpp', undefined, { batched: true });
    let batches = 0;
    const sendMany = carrier.sendMany?.bind(carrier);
    carrier.sendMany = (batch) => {
      batches += 1;
      return sendMany ? sendMany(batch) : Promise.resolve([]);
    };
    await dispatcher(carrier).dispatchOnce();
    expect(batches).toBe(1);
    expect((await messageRows(database.db, ids)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('fails a message the carrier refuses for good, with its code and text, and refunds it once', async () => {
    const s = await setup({ carrier: 'smpp', balance: '1' });
    const ids = await queueTestMessages(database.db, s, { count: 3, price: '0.0250' });
    expect(await balanceOf(s.accountId)).toBe('0.9250');
    const refused = ids[1];
    const carrier = new RecordingCarrier('smpp', (m) =>
      m.id === refused ? invalidDestination : { accepted: true, carrierMessageId: `ok-${m.id}` },
    );
    const round = await dispatcher(carrier).dispatchOnce();
    expect(round).toMatchObject({ claimed: 3, sent: 2, failed: 1, refunded: 1 });
    const [row] = await messageRows(database.db, [refused as string]);
    expect(row).toMatchObject({ status: 'failed', errorCode: '0x0000000B', errorDescription: 'ESME_RINVDSTADR', carrierMessageId: null });
    expect(row?.refundedAt).not.toBeNull();
    expect(await balanceOf(s.accountId)).toBe('0.9500');
    const refunds = await queryRows<{ amount: string; description: string }>(
      database.db,
      sql`select amount::text, description from account_transactions where account_id = ${s.accountId} and kind = 'refund'`,
    );
    expect(refunds).toEqual([{ amount: '0.0250', description: 'Refund: 1 message was not sent' }]);
    const failedEvents = (await outboxEvents(database.db, 'messageStatus', s.accountId))
      .map((e) => (e.data as { message: { id: string; status: string; error: unknown } }).message)
      .filter((m) => m.status === 'failed');
    expect(failedEvents).toEqual([
      expect.objectContaining({ id: refused, error: { code: '0x0000000B', description: 'ESME_RINVDSTADR' } }),
    ]);
  });

  it('refunds a batch with one ledger entry per account', async () => {
    const s = await setup({ carrier: 'smpp', balance: '1' });
    await queueTestMessages(database.db, s, { count: 5, price: '0.0100' });
    await dispatcher(new RecordingCarrier('smpp', () => invalidDestination)).dispatchOnce();
    const refunds = await queryRows<{ amount: string }>(
      database.db,
      sql`select amount::text from account_transactions where account_id = ${s.accountId} and kind = 'refund'`,
    );
    expect(refunds).toEqual([{ amount: '0.0500' }]);
    expect(await balanceOf(s.accountId)).toBe('1.0000');
  });

  it('retries a throttled submit after a backoff, then sends it', async () => {
    const s = await setup({ carrier: 'smpp' });
    const [id] = await queueTestMessages(database.db, s, { count: 1 });
    const carrier = new RecordingCarrier('smpp', (_m, attempt) =>
      attempt < 3 ? throttled : { accepted: true, carrierMessageId: 'third-time' },
    );
    const d = dispatcher(carrier);
    expect(await d.dispatchOnce()).toMatchObject({ claimed: 1, retried: 1 });
    let [row] = await messageRows(database.db, [id as string]);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, errorCode: null, claimedAt: null });
    expect(row?.sendAfter.getTime()).toBe(now.getTime() + 1000);

    // Not before the backoff has passed.
    now = new Date(now.getTime() + 999);
    expect((await d.dispatchOnce()).claimed).toBe(0);
    now = new Date(now.getTime() + 1);
    expect(await d.dispatchOnce()).toMatchObject({ claimed: 1, retried: 1 });
    [row] = await messageRows(database.db, [id as string]);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row?.sendAfter.getTime()).toBe(now.getTime() + 2000);

    now = new Date(now.getTime() + 2000);
    expect(await d.dispatchOnce()).toMatchObject({ claimed: 1, sent: 1 });
    [row] = await messageRows(database.db, [id as string]);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, carrierMessageId: 'third-time' });
    expect(carrier.counts.get(id as string)).toBe(3);
  });

  it('backs off 1 s doubling to at most 5 minutes', () => {
    expect([1, 2, 3, 4, 7, 9, 12].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 64_000, 256_000, 300_000]);
  });

  it('fails and refunds a message after 8 retryable failures, a thrown submit counting as one', async () => {
    const s = await setup({ carrier: 'smpp', balance: '1' });
    const [id] = await queueTestMessages(database.db, s, { count: 1, price: '0.0100' });
    const carrier = new RecordingCarrier('smpp', (_m, attempt) => {
      if (attempt === 1) throw new Error('connection reset');
      return throttled;
    });
    const d = dispatcher(carrier);
    for (let attempt = 1; attempt <= 8; attempt++) {
      const round = await d.dispatchOnce();
      expect(round.claimed).toBe(1);
      now = new Date(now.getTime() + 5 * 60_000);
    }
    expect((await d.dispatchOnce()).claimed).toBe(0);
    const [row] = await messageRows(database.db, [id as string]);
    expect(row).toMatchObject({ status: 'failed', attempts: 8, errorCode: '0x00000058', errorDescription: 'ESME_RTHROTTLED' });
    expect(carrier.counts.get(id as string)).toBe(8);
    expect(await balanceOf(s.accountId)).toBe('1.0000');
  });

  it('retries when the carrier is not configured', async () => {
    const s = await setup({ carrier: 'twilio' });
    const [id] = await queueTestMessages(database.db, s, { count: 1 });
    const round = await dispatcher(new RecordingCarrier('smpp')).dispatchOnce();
    expect(round).toMatchObject({ claimed: 1, retried: 1 });
    const [row] = await messageRows(database.db, [id as string]);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
  });

  it("keeps to each number's rate: messagesPerSecond a claim, then the gate waits", async () => {
    const slow = await setup({ carrier: 'smpp', messagesPerSecond: 3 });
    const fast = await createSendingSetup(database.db, { carrier: 'smpp', messagesPerSecond: 50, accountId: slow.accountId });
    const slowIds = await queueTestMessages(database.db, slow, { count: 10 });
    await queueTestMessages(database.db, fast, { count: 120 });
    const carrier = new RecordingCarrier('smpp');
    const d = dispatcher(carrier, { batchSize: 500 });
    const perNumber = () => {
      const counts = new Map<string, number>();
      for (const m of carrier.submits) counts.set(m.from, (counts.get(m.from) ?? 0) + 1);
      return [counts.get(slow.number) ?? 0, counts.get(fast.number) ?? 0];
    };
    expect((await d.dispatchOnce()).claimed).toBe(53);
    expect(perNumber()).toEqual([3, 50]);
    // The gate of both is closed until their rate covered what they got.
    expect((await d.dispatchOnce()).claimed).toBe(0);
    now = new Date(now.getTime() + 999);
    expect((await d.dispatchOnce()).claimed).toBe(0);
    now = new Date(now.getTime() + 1);
    expect((await d.dispatchOnce()).claimed).toBe(53);
    expect(perNumber()).toEqual([6, 100]);
    const [gate] = await queryRows<{ next: Date | string }>(
      database.db,
      sql`select next_dispatch_at as next from phone_numbers where id = ${slow.phoneNumberId}`,
    );
    expect(new Date(gate?.next ?? 0).getTime()).toBe(now.getTime() + 1000);
    // In queue order.
    expect(carrier.submits.filter((m) => m.from === slow.number).map((m) => m.id)).toEqual(slowIds.slice(0, 6));
  });

  it.runIf(kind === 'postgres')('claims for a number while a sender’s open transaction queues more for it', async () => {
    const s = await setup({ carrier: 'smpp' });
    const ids = await queueTestMessages(database.db, s, { count: 2 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted: () => void = () => undefined;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    // Inserting a message takes KEY SHARE on its number (the foreign key) until the sender commits.
    const sender = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into messages (id, account_id, conversation_id, contact_id, phone_number_id, direction, from_number, to_number, status)
        values (gen_random_uuid(), ${s.accountId}, ${s.conversationId}, ${s.contactId}, ${s.phoneNumberId}, 'outbound', ${s.number}, ${s.contactNumber}, 'queued')`);
      inserted();
      await held;
    });
    await insertedYet;
    try {
      expect((await dispatcher(new RecordingCarrier('smpp')).dispatchOnce()).claimed).toBe(2);
    } finally {
      release();
      await sender;
    }
    expect((await messageRows(database.db, ids)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('caps one claim at batchSize', async () => {
    const s = await setup({ carrier: 'smpp', messagesPerSecond: 1000 });
    await queueTestMessages(database.db, s, { count: 30 });
    const d = dispatcher(new RecordingCarrier('smpp'), { batchSize: 12 });
    expect((await d.dispatchOnce()).claimed).toBe(12);
  });

  describe('quiet hours', () => {
    // 02:00 in New York (EST, UTC-5) on a winter night; the window opens at 08:00 local = 13:00 UTC.
    const night = new Date('2030-01-15T07:00:00.000Z');
    const opening = new Date('2030-01-15T13:00:00.000Z');
    const quietHours = { enabled: true, start: '08:00', end: '21:00' };

    it('holds a message outside the recipient’s acceptable hours until the next opening, then sends it', async () => {
      const s = await setup({ carrier: 'smpp', quietHours });
      now = night;
      const [id] = await queueTestMessages(database.db, s, { count: 1, timeZone: 'America/New_York', sendAfter: new Date(night.getTime() - 1000) });
      const carrier = new RecordingCarrier('smpp');
      const d = dispatcher(carrier);
      expect(await d.dispatchOnce()).toMatchObject({ claimed: 0, held: 1 });
      let [row] = await messageRows(database.db, [id as string]);
      expect(row).toMatchObject({ status: 'queued', claimedAt: null, attempts: 0 });
      expect(row?.sendAfter.toISOString()).toBe(opening.toISOString());
      expect(carrier.submits).toEqual([]);

      now = new Date(opening.getTime() - 1);
      expect((await d.dispatchOnce()).claimed).toBe(0);
      now = opening;
      expect(await d.dispatchOnce()).toMatchObject({ claimed: 1, sent: 1, held: 0 });
      [row] = await messageRows(database.db, [id as string]);
      expect(row?.status).toBe('sent');
    });

    it('sends at night what was approved, what has no recipient zone, and everything when quiet hours are off', async () => {
      const s = await setup({ carrier: 'smpp', quietHours });
      now = night;
      const sendAfter = new Date(night.getTime() - 1000);
      const approved = await queueTestMessages(database.db, s, { count: 1, timeZone: 'America/New_York', sendAfter, approved: true });
      const noZone = await queueTestMessages(database.db, s, { count: 1, timeZone: null, sendAfter });
      const held = await queueTestMessages(database.db, s, { count: 1, timeZone: 'America/New_York', sendAfter });
      // In Tokyo it is 16:00: within the window.
      const tokyo = await queueTestMessages(database.db, s, { count: 1, timeZone: 'Asia/Tokyo', sendAfter });
      const d = dispatcher(new RecordingCarrier('smpp'));
      expect(await d.dispatchOnce()).toMatchObject({ claimed: 3, held: 1 });
      const rows = await messageRows(database.db, [...approved, ...noZone, ...held, ...tokyo]);
      expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'queued', 'sent']);

      await database.db.execute(sql`update accounts set quiet_hours_enabled = false where id = ${s.accountId}`);
      now = new Date(night.getTime() + 60_000);
      await database.db.execute(sql`update messages set send_after = ${night.toISOString()}::timestamptz where id = ${held[0]}`);
      expect(await d.dispatchOnce()).toMatchObject({ claimed: 1, held: 0 });
    });

    it('does not count held messages against the number’s rate', async () => {
      const s = await setup({ carrier: 'smpp', quietHours, messagesPerSecond: 2 });
      now = night;
      const sendAfter = new Date(night.getTime() - 1000);
      await queueTestMessages(database.db, s, { count: 2, timeZone: 'America/New_York', sendAfter });
      const later = await queueTestMessages(database.db, s, { count: 2, timeZone: null, sendAfter: new Date(night.getTime() - 500) });
      const d = dispatcher(new RecordingCarrier('smpp'));
      expect(await d.dispatchOnce()).toMatchObject({ claimed: 0, held: 2 });
      expect(await d.dispatchOnce()).toMatchObject({ claimed: 2 });
      expect((await messageRows(database.db, later)).map((r) => r.status)).toEqual(['sent', 'sent']);
    });
  });

  describe('a dispatcher that died mid-batch', () => {
    async function strandedClaim(s: SendingSetup, count: number, claimedSecondsAgo: number): Promise<string[]> {
      const ids = await queueTestMessages(database.db, s, { count, price: '0.0100' });
      await database.db.execute(sql`update messages set status = 'sending', claimed_at = ${new Date(now.getTime() - claimedSecondsAgo * 1000).toISOString()}::timestamptz
        where account_id = ${s.accountId} and status = 'queued'`);
      return ids;
    }

    it('fails its messages as unknown-outcome and refunds them when the carrier cannot take a repeat', async () => {
      const s = await setup({ carrier: 'smpp', balance: '1' });
      const ids = await strandedClaim(s, 3, 61);
      const carrier = new RecordingCarrier('smpp');
      const round = await dispatcher(carrier, { leaseSeconds: 60 }).dispatchOnce();
      expect(round.recovered).toEqual({ requeued: 0, failed: 3 });
      expect(carrier.submits).toEqual([]);
      for (const row of await messageRows(database.db, ids)) {
        expect(row).toMatchObject({ status: 'failed', errorCode: UNKNOWN_OUTCOME_CODE });
        expect(row.errorDescription).toContain('not sent again');
        expect(row.refundedAt).not.toBeNull();
      }
      expect(await balanceOf(s.accountId)).toBe('1.0000');
    });

    it('submits its messages again when the carrier takes a repeated submit as the same message', async () => {
      const s = await setup({ carrier: 'smpp' });
      const ids = await strandedClaim(s, 2, 61);
      const carrier = new RecordingCarrier('smpp', undefined, { idempotentSubmit: true });
      const round = await dispatcher(carrier, { leaseSeconds: 60 }).dispatchOnce();
      expect(round.recovered).toEqual({ requeued: 2, failed: 0 });
      expect(round.sent).toBe(2);
      expect((await messageRows(database.db, ids)).map((r) => r.status)).toEqual(['sent', 'sent']);
    });

    it('leaves a claim within its lease alone', async () => {
      const s = await setup({ carrier: 'smpp' });
      const ids = await strandedClaim(s, 1, 30);
      const round = await dispatcher(new RecordingCarrier('smpp'), { leaseSeconds: 60 }).dispatchOnce();
      expect(round.recovered).toEqual({ requeued: 0, failed: 0 });
      expect((await messageRows(database.db, ids))[0]?.status).toBe('sending');
    });

    it('renews its own claim while a slow carrier answers, so no one takes it over', async () => {
      const s = await setup({ carrier: 'smpp' });
      const ids = await queueTestMessages(database.db, s, { count: 2 });
      const realClock = () => new Date();
      now = new Date();
      const waiting: (() => void)[] = [];
      const release = () => {
        for (const resolve of waiting) resolve();
      };
      const slow = new RecordingCarrier('smpp', async () => {
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
        });
        return { accepted: true, carrierMessageId: 'slow' };
      });
      const first = dispatcher(slow, { leaseSeconds: 0.3, clock: realClock });
      const running = first.dispatchOnce();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const other = new RecordingCarrier('smpp');
      const second = await dispatcher(other, { leaseSeconds: 0.3, clock: realClock }).dispatchOnce();
      expect(second.recovered).toEqual({ requeued: 0, failed: 0 });
      release();
      expect((await running).sent).toBe(2);
      expect(other.submits).toEqual([]);
      expect((await messageRows(database.db, ids)).map((r) => r.status)).toEqual(['sent', 'sent']);
    });
  });

  it('two dispatchers on one database never submit a message twice', async () => {
    const s = await setup({ carrier: 'smpp', messagesPerSecond: 100_000 });
    const second = await createSendingSetup(database.db, { carrier: 'smpp', messagesPerSecond: 100_000, accountId: s.accountId });
    const ids = [
      ...(await queueTestMessages(database.db, s, { count: 600 })),
      ...(await queueTestMessages(database.db, second, { count: 600 })),
    ];
    const carrier = new RecordingCarrier('smpp', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { accepted: true, carrierMessageId: `c-${Math.random()}` };
    });
    const realClock = () => new Date();
    const both = [
      dispatcher(carrier, { batchSize: 100, pollIntervalMs: 10, clock: realClock }),
      dispatcher(carrier, { batchSize: 100, pollIntervalMs: 10, clock: realClock }),
    ];
    await Promise.all(both.map((d) => d.start()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [left] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from messages where account_id = ${s.accountId} and status <> 'sent'`,
      );
      if (left?.n === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.all(both.map((d) => d.stop()));
    expect(carrier.duplicates()).toEqual([]);
    expect(new Set(carrier.submits.map((m) => m.id))).toEqual(new Set(ids));
  });

  it('stop() lets the batch in flight finish and write its results', async () => {
    const s = await setup({ carrier: 'smpp' });
    const ids = await queueTestMessages(database.db, s, { count: 5 });
    let started: () => void = () => undefined;
    const submitting = new Promise<void>((resolve) => (started = resolve));
    const carrier = new RecordingCarrier('smpp', async (m) => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { accepted: true, carrierMessageId: m.id };
    });
    const d = dispatcher(carrier, { clock: () => new Date() });
    await d.start();
    await submitting;
    await d.stop();
    expect((await messageRows(database.db, ids)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
  });
});
