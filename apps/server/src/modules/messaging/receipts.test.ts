import { sql } from 'drizzle-orm';
import type { NumberCarrierRef } from '../carriers/registry.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StatusReport } from '../carriers/carrier.js';
import { saveSimulatorSettings } from '../carriers/simulator/settings.js';
import { SimulatorCarrier } from '../carriers/simulator/simulatorCarrier.js';
import type { Database } from '../../platform/db/client.js';
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
import { createMessageHandlers } from './handlers.js';
import { applyStatusReports, ReceiptNotMatchedError } from './receipts.js';
import { useLedgerCheckedDatabase } from '../../test/ledgerCheckedDatabase.js';

const report = (carrierMessageId: string, status: StatusReport['status'], extra: Partial<StatusReport> = {}): StatusReport => ({
  carrierMessageId,
  status,
  errorCode: null,
  errorText: null,
  at: new Date(),
  ...extra,
});

const statusEvents = async (database: Database, accountId: string) =>
  (await outboxEvents(database.db, 'messageStatus', accountId)).map(
    (e) => (e.data as { message: { id: string; status: string } }).message,
  );

describe.each(testDatabaseKinds)('delivery receipts on %s', (kind) => {
  let database: Database;
  const accounts: string[] = [];
  const log = silentLogger();

  // Whatever a test did, every account's balance is still the sum of its ledger.
  useLedgerCheckedDatabase(kind, (opened) => (database = opened), accounts);

  // The deployment's SMPP connection, which these tests' messages are sent through.
  const SMPP: NumberCarrierRef = { carrier: 'smpp', carrierSettingsId: null };

  async function setup(options: Parameters<typeof createSendingSetup>[1] = {}): Promise<SendingSetup> {
    const made = await createSendingSetup(database.db, options);
    accounts.push(made.accountId);
    return made;
  }

  /** Messages sent through a recording carrier that names them c-<n>; answers their ids and carrier ids. */
  async function sentMessages(s: SendingSetup, count: number): Promise<{ ids: string[]; cids: string[] }> {
    const ids = await queueTestMessages(database.db, s, { count });
    const cid = (id: string) => `c-${id}`;
    const carrier = new RecordingCarrier('smpp', (m) => ({ accepted: true, carrierMessageId: cid(m.id) }));
    await new MessageDispatcher({ database, carriers: registryOf(carrier), log }).dispatchOnce();
    return { ids, cids: ids.map(cid) };
  }

  describe('through the simulator', () => {
    let now = Date.now();
    const clock = () => new Date(now);
    beforeEach(() => {
      now = Date.now();
    });

    it('send → claimed → sent → receipt → delivered, with an event at each step', async () => {
      await saveSimulatorSettings(database.db, { seed: 7, latencyMs: 500, failureRate: 0, messagesPerSecond: 10_000, errorCodes: [] });
      const s = await setup({ carrier: 'simulator' });
      const ids = await queueTestMessages(database.db, s, { count: 3 });
      // The messages are due a second before they were queued: the clock starts after that, however long
      // the setup took on a loaded machine.
      now = Date.now();
      const simulator = new SimulatorCarrier({ database, log, clock, pollIntervalMs: 3_600_000 });
      const carriers = registryOf(simulator);
      await carriers.start(createMessageHandlers({ database, log }));
      try {
        const round = await new MessageDispatcher({ database, carriers, log, clock }).dispatchOnce();
        expect(round).toMatchObject({ claimed: 3, sent: 3 });
        let rows = await messageRows(database.db, ids);
        expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
        expect(rows.every((r) => r.carrier === 'simulator' && r.carrierMessageId !== null)).toBe(true);

        // Nothing is due before the network's latency (±20%) has passed.
        expect(await simulator.pollOnce()).toBe(0);
        now += 1000;
        expect(await simulator.pollOnce()).toBe(3);
        rows = await messageRows(database.db, ids);
        expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered', 'delivered']);
        expect(rows.every((r) => r.errorCode === null && r.statusAt !== null)).toBe(true);
        const events = await statusEvents(database, s.accountId);
        expect(events.filter((e) => e.status === 'sent').map((e) => e.id)).toEqual(ids);
        expect(events.filter((e) => e.status === 'delivered').map((e) => e.id).sort()).toEqual([...ids].sort());
      } finally {
        await carriers.stop();
      }
    });

    it('a submit the simulated network refuses fails and is refunded; a failed delivery is not', async () => {
      await saveSimulatorSettings(database.db, {
        seed: 3,
        latencyMs: 100,
        failureRate: 1,
        messagesPerSecond: 10_000,
        errorCodes: [{ code: '21610', text: 'Attempt to send to unsubscribed recipient', stage: 'submit' }],
      });
      const s = await setup({ carrier: 'simulator', balance: '1' });
      const [refused] = await queueTestMessages(database.db, s, { count: 1, price: '0.0300' });
      const simulator = new SimulatorCarrier({ database, log, clock, pollIntervalMs: 3_600_000 });
      const carriers = registryOf(simulator);
      await carriers.start(createMessageHandlers({ database, log }));
      try {
        const dispatcher = new MessageDispatcher({ database, carriers, log, clock });
        expect(await dispatcher.dispatchOnce()).toMatchObject({ failed: 1, refunded: 1 });
        const [row] = await messageRows(database.db, [refused as string]);
        expect(row).toMatchObject({ status: 'failed', errorCode: '21610', errorDescription: 'Attempt to send to unsubscribed recipient' });
        expect((await ledgerAndBalance(database.db, s.accountId)).balance).toBe('1.0000');

        await saveSimulatorSettings(database.db, {
          seed: 3,
          latencyMs: 100,
          failureRate: 1,
          messagesPerSecond: 10_000,
          errorCodes: [{ code: '30003', text: 'Unreachable destination handset', stage: 'delivery' }],
        });
        const [undelivered] = await queueTestMessages(database.db, s, { count: 1, price: '0.0300' });
        now += 1000;
        expect(await dispatcher.dispatchOnce()).toMatchObject({ sent: 1 });
        now += 1000;
        await simulator.pollOnce();
        const [late] = await messageRows(database.db, [undelivered as string]);
        expect(late).toMatchObject({ status: 'undelivered', errorCode: '30003', errorDescription: 'Unreachable destination handset', refundedAt: null });
        expect((await ledgerAndBalance(database.db, s.accountId)).balance).toBe('0.9700');
      } finally {
        await carriers.stop();
        await saveSimulatorSettings(database.db, { seed: 1, latencyMs: 300, failureRate: 0, messagesPerSecond: 10_000, errorCodes: [] });
      }
    });
  });

  it('moves statuses only forward: a final status is never overwritten, a repeat changes nothing', async () => {
    const s = await setup({ carrier: 'smpp' });
    const { ids, cids } = await sentMessages(s, 3);
    const [a, b, c] = cids as [string, string, string];
    const handlers = createMessageHandlers({ database, log }).forConnection(SMPP);
    // Out of order: delivered first, then the intermediate 'sent', then a failure.
    await handlers.status(report(a, 'delivered'));
    await handlers.status(report(a, 'sent'));
    await handlers.status(report(a, 'failed', { errorCode: '0x0000000B', errorText: 'REJECTD' }));
    await handlers.status(report(a, 'delivered'));
    // Undelivered with the carrier's code and text; then a late 'delivered' does not change it.
    await handlers.statusMany([report(b, 'undelivered', { errorCode: '001', errorText: 'UNDELIV' }), report(b, 'delivered')]);
    // One batch holding both steps of one message: the furthest wins.
    await handlers.statusMany([report(c, 'sent'), report(c, 'delivered')]);
    const rows = await messageRows(database.db, ids);
    expect(rows.map((r) => [r.status, r.errorCode, r.errorDescription])).toEqual([
      ['delivered', null, null],
      ['undelivered', '001', 'UNDELIV'],
      ['delivered', null, null],
    ]);
    const events = (await statusEvents(database, s.accountId)).filter((e) => e.status !== 'sent');
    expect(events).toEqual([
      expect.objectContaining({ id: ids[0], status: 'delivered' }),
      expect.objectContaining({ id: ids[1], status: 'undelivered', error: { code: '001', description: 'UNDELIV' } }),
      expect.objectContaining({ id: ids[2], status: 'delivered' }),
    ]);
  });

  it('keeps the report time as the status time', async () => {
    const s = await setup({ carrier: 'smpp' });
    const { ids, cids } = await sentMessages(s, 1);
    const at = new Date('2031-02-03T04:05:06.000Z');
    await applyStatusReports(database, [report(cids[0] as string, 'delivered', { at })], log, SMPP);
    expect((await messageRows(database.db, ids))[0]?.statusAt?.toISOString()).toBe(at.toISOString());
  });

  it('a receipt that beats the dispatcher’s sent write is applied once the id is written', async () => {
    const s = await setup({ carrier: 'smpp' });
    const [id] = await queueTestMessages(database.db, s, { count: 1 });
    await database.db.execute(sql`update messages set status = 'sending', claimed_at = now() where id = ${id}`);
    const applying = applyStatusReports(database, [report('early-1', 'delivered')], log, SMPP);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await database.db.execute(sql`update messages set status = 'sent', carrier = 'smpp', carrier_message_id = 'early-1' where id = ${id}`);
    expect(await applying).toEqual({ changed: 1, dropped: [] });
    expect((await messageRows(database.db, [id as string]))[0]?.status).toBe('delivered');
  });

  it('throws for an unknown id while messages are being submitted (the adapter reports it again), after writing the rest', async () => {
    const s = await setup({ carrier: 'smpp' });
    const { ids, cids } = await sentMessages(s, 1);
    const [pending] = await queueTestMessages(database.db, s, { count: 1 });
    await database.db.execute(sql`update messages set status = 'sending', claimed_at = now() where id = ${pending}`);
    const handlers = createMessageHandlers({ database, log }).forConnection(SMPP);
    await expect(handlers.statusMany([report(cids[0] as string, 'delivered'), report('not-yet', 'delivered')])).rejects.toBeInstanceOf(
      ReceiptNotMatchedError,
    );
    expect((await messageRows(database.db, ids))[0]?.status).toBe('delivered');
    // The redelivery, once the id is there, applies.
    await database.db.execute(sql`update messages set status = 'sent', carrier = 'smpp', carrier_message_id = 'not-yet' where id = ${pending}`);
    await handlers.statusMany([report(cids[0] as string, 'delivered'), report('not-yet', 'delivered')]);
    expect((await messageRows(database.db, [pending as string]))[0]?.status).toBe('delivered');
  });

  it('drops a receipt for an id no message can take any more (nothing is being submitted)', async () => {
    const s = await setup({ carrier: 'smpp' });
    await sentMessages(s, 1);
    await database.db.execute(sql`update messages set status = 'failed' where status = 'sending'`);
    const result = await applyStatusReports(database, [report('never-sent', 'delivered')], log, SMPP);
    expect(result).toEqual({ changed: 0, dropped: ['never-sent'] });
  });

  it("matches a connection's receipts only to messages sent through it", async () => {
    const s = await setup({ carrier: 'smpp' });
    const { ids, cids } = await sentMessages(s, 1);
    const handlers = createMessageHandlers({ database, log });
    await handlers.forConnection({ carrier: 'twilio', carrierSettingsId: null }).status(report(cids[0] as string, 'delivered'));
    expect((await messageRows(database.db, ids))[0]?.status).toBe('sent');
    await handlers.forConnection({ carrier: 'smpp', carrierSettingsId: null }).status(report(cids[0] as string, 'delivered'));
    expect((await messageRows(database.db, ids))[0]?.status).toBe('delivered');
  });
});
