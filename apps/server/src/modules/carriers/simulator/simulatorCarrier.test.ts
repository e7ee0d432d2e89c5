import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { normaliseContactMobile } from '@parley/shared';
import type { Database } from '../../../platform/db/client.js';
import { simulatorMessages, simulatorPending } from '../../../platform/db/schema/index.js';
import { testDatabaseKinds, openTestDatabase } from '../../../test/databases.js';
import { createAccount } from '../../../test/factories.js';
import { silentLogger } from '../../../test/logger.js';
import { createPhoneNumber } from '../../../test/phoneNumbers.js';
import type { CarrierHandlers, InboundMessage, OutboundMessage, StatusReport, SubmitResult } from '../carrier.js';
import { simulatedOutcome } from './outcome.js';
import { sendFromPhone } from './phones.js';
import { defaultSimulatorErrorCodes, loadSimulatorSettings, saveSimulatorSettings } from './settings.js';
import { SIMULATOR_THROTTLED, SimulatorCarrier, SimulatorNumberUnavailableError } from './simulatorCarrier.js';

const business = '+12025550100';
const otherBusiness = '+12125550100';
const phones = ['+14155550101', '+14155550102', '+14155550103'];

const message = (to: string, from = business, id: string = randomUUID()): OutboundMessage => ({
  id,
  accountId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  from,
  to,
  text: `Hello ${to}`,
  encoding: 'GSM-7',
  segments: 1,
  media: [],
});

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2030, 0, 1, 12, 0, 0)) {
  let now = start;
  return {
    clock: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Handlers that record what the carrier hands over. */
function recordingHandlers(overrides: Partial<CarrierHandlers> = {}) {
  const reports: StatusReport[] = [];
  const inbound: InboundMessage[] = [];
  const handlers: CarrierHandlers = {
    status: (report) => {
      reports.push(report);
      return Promise.resolve();
    },
    statusMany: (many) => {
      reports.push(...many);
      return Promise.resolve();
    },
    inbound: (m) => {
      inbound.push(m);
      return Promise.resolve();
    },
    ...overrides,
  };
  return { handlers, reports, inbound };
}

const plainSettings = { seed: 1, latencyMs: 1000, failureRate: 0, messagesPerSecond: 10_000, errorCodes: [...defaultSimulatorErrorCodes] };

describe.each(testDatabaseKinds)('the simulator carrier on %s', (kind) => {
  let database: Database;
  const carriers: SimulatorCarrier[] = [];
  const carrier = (options: Partial<ConstructorParameters<typeof SimulatorCarrier>[0]> = {}) => {
    const made = new SimulatorCarrier({ database, log: silentLogger(), pollIntervalMs: 10, ...options });
    carriers.push(made);
    return made;
  };

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(async () => {
    await Promise.all(carriers.splice(0).map((c) => c.stop()));
    await database.db.delete(simulatorMessages);
    await database.db.delete(simulatorPending);
    await saveSimulatorSettings(database.db, plainSettings);
  });
  afterAll(async () => {
    await database.close();
  });

  it('creates its settings with the defaults on first use', async () => {
    await database.db.execute(sql`delete from simulator_settings`);
    const settings = await loadSimulatorSettings(database.db);
    expect(settings).toMatchObject({ seed: 1, latencyMs: 300, failureRate: 0, messagesPerSecond: 10 });
    expect(settings.errorCodes.map((e) => `${e.code} ${e.stage}`)).toEqual(['30003 delivery', '30005 delivery', '30006 delivery', '21610 submit']);
  });

  it('repeats a run exactly under the same seed, and another seed gives another run', async () => {
    /** A run on a database of its own: the same sends, in the same batches, at the same clock. */
    const run = async (seed: number) => {
      const fresh = await openTestDatabase(kind);
      try {
        await saveSimulatorSettings(fresh.db, { ...plainSettings, seed, failureRate: 0.3, latencyMs: 1000 });
        const { clock } = manualClock();
        const sim = new SimulatorCarrier({ database: fresh, log: silentLogger(), clock });
        const outcomes: string[] = [];
        for (let batch = 0; batch < 4; batch++) {
          const sent = Array.from({ length: 15 }, (_, i) => message(phones[i % phones.length] ?? ''));
          const results = await sim.sendMany(sent);
          outcomes.push(...results.map((r, i) => `${sent[i]?.to ?? ''} ${r.accepted ? 'accepted' : `refused ${r.errorCode}`}`));
        }
        const rows = await fresh.db
          .select({ phone: simulatorMessages.phoneNumber, seq: simulatorMessages.sequence, code: simulatorMessages.errorCode, due: simulatorMessages.dueAt })
          .from(simulatorMessages)
          .orderBy(simulatorMessages.phoneNumber, simulatorMessages.sequence);
        const planned = rows.map((r) => `${r.phone} #${String(r.seq)} ${r.code ?? 'ok'} ${r.due === null ? '-' : String(r.due.getTime() - clock().getTime())}`);
        return { outcomes, planned };
      } finally {
        await fresh.close();
      }
    };
    const first = await run(7);
    const again = await run(7);
    const other = await run(8);
    expect(again).toEqual(first);
    expect(other.planned).not.toEqual(first.planned);
    // Sequences count per phone; about 30% fail; latencies vary around 1000 ms.
    expect(first.planned.filter((p) => p.startsWith(phones[0] ?? '')).map((p) => p.split(' ')[1])).toEqual(
      Array.from({ length: 20 }, (_, i) => `#${String(i + 1)}`),
    );
    const failed = first.planned.filter((p) => !p.includes(' ok '));
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(35);
    const delays = first.planned.map((p) => p.split(' ')[3]).filter((d) => d !== '-').map(Number);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(800);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1200);
    expect(new Set(delays).size).toBeGreaterThan(5);
  });

  it('decides each outcome from the seed, the phone and its sequence: refusals at submit, failures at delivery', async () => {
    const settings = { ...plainSettings, failureRate: 0.5 };
    await saveSimulatorSettings(database.db, settings);
    const { clock } = manualClock();
    const sim = carrier({ clock });
    const sent = Array.from({ length: 40 }, () => message(phones[0] ?? ''));
    const results = await sim.sendMany(sent);
    const refusals = results.filter((r): r is Extract<SubmitResult, { accepted: false }> => !r.accepted);
    results.forEach((result, i) => {
      const expected = simulatedOutcome(settings, phones[0] ?? '', i + 1);
      if (expected.kind === 'refused') {
        expect(result).toEqual({ accepted: false, retryable: false, errorCode: expected.errorCode, errorText: expected.errorText });
      } else {
        expect(result.accepted).toBe(true);
      }
    });
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((r) => r.errorCode === '21610' && r.errorText === 'Attempt to send to unsubscribed recipient')).toBe(true);
    // A refusal is on the phone too, done at once (no receipt will follow).
    const failedRows = await database.db.select().from(simulatorMessages).where(eq(simulatorMessages.status, 'failed'));
    expect(failedRows).toHaveLength(refusals.length);
    expect(failedRows.every((r) => r.doneAt !== null && r.dueAt === null)).toBe(true);
  });

  it('takes a resubmitted message id as the same message: one row, the same carrier id or the same refusal', async () => {
    await saveSimulatorSettings(database.db, { ...plainSettings, failureRate: 1, errorCodes: [{ code: '21610', text: 'Unsubscribed', stage: 'submit' }] });
    const sim = carrier();
    const refused = message(phones[0] ?? '');
    const [first] = await sim.sendMany([refused]);
    await saveSimulatorSettings(database.db, plainSettings);
    const [again] = await sim.sendMany([refused]);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ accepted: false, retryable: false, errorCode: '21610' });

    const accepted = message(phones[1] ?? '');
    const once = await sim.send(accepted);
    const fresh = message(phones[2] ?? '');
    const twice = await sim.sendMany([fresh, accepted, accepted]);
    expect(once.accepted).toBe(true);
    expect(twice[0]?.accepted).toBe(true);
    expect(twice[1]).toEqual(once);
    expect(twice[2]).toEqual(once);
    const rows = await database.db.select().from(simulatorMessages);
    expect(rows.map((r) => r.ref).sort()).toEqual([refused.id, accepted.id, fresh.id].sort());
    expect(rows.find((r) => r.ref === accepted.id)?.id).toBe(once.accepted ? once.carrierMessageId : null);
    // The receipts owed: one each for the accepted messages, repeats included; none for the refusal.
    const owed = await database.db.select().from(simulatorPending);
    const owedIds = rows.filter((r) => r.ref !== refused.id).map((r) => r.id);
    expect(owed.map((r) => r.id).sort()).toEqual(owedIds.sort());
  });

  it('reports a receipt again when a message it already reported is submitted again, dated as the first; never early', async () => {
    const { clock, advance } = manualClock();
    const sim = carrier({ clock });
    const seen = recordingHandlers();
    await sim.start(seen.handlers);
    const sent = message(phones[0] ?? '');
    const first = await sim.send(sent);
    if (!first.accepted) throw new Error('expected the simulator to accept');
    // Resubmitted before its latency has passed: still one receipt, when it is due.
    expect(await sim.send(sent)).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.reports).toHaveLength(0);
    advance(1500);
    await vi.waitFor(() => {
      expect(seen.reports).toHaveLength(1);
    }, { timeout: 5_000, interval: 20 });
    const firstAt = seen.reports[0]?.at.getTime() ?? 0;

    // After its receipt: the repeat is the same message and its receipt comes once more, dated as before.
    advance(60_000);
    expect(await sim.send(sent)).toEqual(first);
    await vi.waitFor(() => {
      expect(seen.reports).toHaveLength(2);
    }, { timeout: 5_000, interval: 20 });
    expect(seen.reports[1]).toMatchObject({ carrierMessageId: first.carrierMessageId, status: 'delivered', errorCode: null });
    expect((seen.reports[1]?.at.getTime() ?? 0) - firstAt).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.reports).toHaveLength(2);
    // The row is marked done after the handler returned, in a write of its own: wait for that write.
    await vi.waitFor(async () => {
      const rows = await database.db.select().from(simulatorMessages);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'delivered' });
      expect(rows[0]?.doneAt).not.toBeNull();
      expect(await database.db.select().from(simulatorPending)).toHaveLength(0);
    }, { timeout: 5_000, interval: 20 });
  });

  it('refuses submits over the messages per second of a business number, retryable', async () => {
    await saveSimulatorSettings(database.db, { ...plainSettings, messagesPerSecond: 5 });
    const { clock, advance } = manualClock();
    const sim = carrier({ clock });
    const results = await sim.sendMany(Array.from({ length: 8 }, (_, i) => message(phones[i % 3] ?? '')));
    expect(results.map((r) => r.accepted)).toEqual([true, true, true, true, true, false, false, false]);
    expect(results[5]).toMatchObject({ accepted: false, retryable: true, errorCode: SIMULATOR_THROTTLED });
    // Another business number has a bucket of its own.
    expect((await sim.send(message(phones[0] ?? '', otherBusiness))).accepted).toBe(true);
    advance(400);
    const later = await sim.sendMany(Array.from({ length: 3 }, () => message(phones[1] ?? '')));
    expect(later.map((r) => r.accepted)).toEqual([true, true, false]);
    // A throttled message was not written, so it takes no sequence.
    expect(await database.db.select().from(simulatorMessages)).toHaveLength(5 + 1 + 2);
  });

  it('reports receipts after the latency, once, with two loops on one database', async () => {
    await saveSimulatorSettings(database.db, {
      ...plainSettings,
      latencyMs: 1000,
      failureRate: 0.4,
      errorCodes: [{ code: '30003', text: 'Unreachable destination handset', stage: 'delivery' }],
    });
    const { clock, advance } = manualClock();
    const a = carrier({ clock, batchSize: 50 });
    const b = carrier({ clock, batchSize: 50 });
    const seen = recordingHandlers();
    await a.start(seen.handlers);
    await b.start(seen.handlers);
    const sent = Array.from({ length: 300 }, (_, i) => message(`+1415555${String(1000 + i)}`));
    const results = await a.sendMany(sent);
    const ids = results.map((r) => (r.accepted ? r.carrierMessageId : ''));
    expect(ids.every((id) => id !== '')).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen.reports).toHaveLength(0);
    advance(1300);
    await vi.waitFor(() => {
      expect(seen.reports).toHaveLength(300);
    }, { timeout: 15_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen.reports).toHaveLength(300);
    expect(new Set(seen.reports.map((r) => r.carrierMessageId))).toEqual(new Set(ids));

    const undelivered = seen.reports.filter((r) => r.status === 'undelivered');
    expect(undelivered.length).toBeGreaterThan(60);
    expect(undelivered.every((r) => r.errorCode === '30003' && r.errorText === 'Unreachable destination handset')).toBe(true);
    expect(seen.reports.filter((r) => r.status === 'delivered').every((r) => r.errorCode === null)).toBe(true);
    // The receipt carries when the message was delivered: submit time plus its latency.
    for (const report of seen.reports) {
      const delay = report.at.getTime() - (clock().getTime() - 1300);
      expect(delay).toBeGreaterThanOrEqual(800);
      expect(delay).toBeLessThanOrEqual(1200);
    }
    await vi.waitFor(async () => {
      const rows = await database.db.select().from(simulatorMessages);
      expect(rows.every((r) => r.doneAt !== null)).toBe(true);
      expect(rows.filter((r) => r.status === 'undelivered')).toHaveLength(undelivered.length);
      expect(await database.db.select().from(simulatorPending)).toHaveLength(0);
    }, { timeout: 5_000, interval: 20 });
  });

  it('drops owed entries whose row is gone, so they never hold up what is due', async () => {
    await saveSimulatorSettings(database.db, { ...plainSettings, latencyMs: 0 });
    const past = new Date(Date.now() - 60_000);
    await database.db.insert(simulatorPending).values(Array.from({ length: 5 }, () => ({ id: randomUUID(), dueAt: past })));
    const seen = recordingHandlers();
    const sim = carrier({ batchSize: 2 });
    await sim.start(seen.handlers);
    const result = await sim.send(message(phones[0] ?? ''));
    await vi.waitFor(async () => {
      expect(seen.reports.map((r) => r.carrierMessageId)).toEqual([result.accepted ? result.carrierMessageId : '']);
      expect(await database.db.select().from(simulatorPending)).toHaveLength(0);
    }, { timeout: 5_000, interval: 20 });
  });

  it('wakes at once for a row put on its list, however long it would otherwise sleep', async () => {
    await saveSimulatorSettings(database.db, { ...plainSettings, latencyMs: 0 });
    const seen = recordingHandlers();
    // It looks by itself only once an hour: only the announcement of a new row can bring it work.
    const sim = carrier({ pollIntervalMs: 3_600_000 });
    await sim.start(seen.handlers);
    // Past its first look, which finds nothing owed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const text = await sendFromPhone(database.db, { phone: phones[0] ?? '', to: business, body: 'Hello?', picture: false, publicUrl: 'https://parley.example' });
    await vi.waitFor(() => {
      expect(seen.inbound.map((m) => m.carrierMessageId)).toEqual([text.id]);
    }, { timeout: 10_000, interval: 20 });
    const result = await sim.send(message(phones[1] ?? ''));
    await vi.waitFor(() => {
      expect(seen.reports.map((r) => r.carrierMessageId)).toEqual([result.accepted ? result.carrierMessageId : '']);
    }, { timeout: 10_000, interval: 20 });
  });

  it('reports receipts again when statusMany throws (at least once)', async () => {
    await saveSimulatorSettings(database.db, { ...plainSettings, latencyMs: 0 });
    let failing = true;
    const seen = recordingHandlers();
    const sim = carrier({ leaseMs: 100 });
    await sim.start({
      ...seen.handlers,
      statusMany: async (many) => {
        if (failing) {
          failing = false;
          throw new Error('the engine is busy');
        }
        await seen.handlers.statusMany(many);
      },
    });
    const result = await sim.send(message(phones[0] ?? ''));
    await vi.waitFor(() => {
      expect(seen.reports.map((r) => r.carrierMessageId)).toEqual([result.accepted ? result.carrierMessageId : '']);
    }, { timeout: 5_000, interval: 20 });
    expect(failing).toBe(false);
  });

  it("hands the phones' messages to inbound, in order, and again after a handler throws", async () => {
    const publicUrl = 'https://parley.example';
    const first = await sendFromPhone(database.db, { phone: phones[0] ?? '', to: business, body: 'First', picture: false, publicUrl });
    const second = await sendFromPhone(database.db, { phone: phones[0] ?? '', to: business, body: 'Second', picture: true, publicUrl });
    const other = await sendFromPhone(database.db, { phone: phones[1] ?? '', to: business, body: 'STOP', picture: false, publicUrl });
    let refusals = 0;
    const seen = recordingHandlers();
    const sim = carrier({ leaseMs: 200 });
    await sim.start({
      ...seen.handlers,
      inbound: async (m) => {
        if (m.text === 'First' && refusals === 0) {
          refusals++;
          throw new Error('the engine is busy');
        }
        await seen.handlers.inbound(m);
      },
    });
    await vi.waitFor(() => {
      expect(seen.inbound).toHaveLength(3);
    }, { timeout: 5_000, interval: 20 });
    expect(refusals).toBe(1);
    // The other phone was not held up; this phone's second message waited for its first.
    expect(seen.inbound.map((m) => m.carrierMessageId)).toEqual([other.id, first.id, second.id]);
    expect(seen.inbound[1]).toEqual({
      carrierMessageId: first.id,
      from: phones[0],
      to: business,
      text: 'First',
      media: [],
      receivedAt: first.createdAt,
    });
    expect(seen.inbound[2]?.media).toEqual([{ url: `${publicUrl}/v1/simulator/media/sunrise.png`, contentType: 'image/png' }]);
    // A message is marked handed after its handler returned, in a write of its own: wait for that write.
    await vi.waitFor(async () => {
      const rows = await database.db.select().from(simulatorMessages);
      expect(rows.map((r) => r.status)).toEqual(['handed', 'handed', 'handed']);
    }, { timeout: 5_000, interval: 20 });
  });

  it('offers valid fictional numbers, never one an account holds, and sells only those', async () => {
    const sim = carrier();
    const offered = await sim.availableNumbers({ country: 'us', limit: 30 });
    expect(offered).toHaveLength(30);
    for (const n of offered) {
      expect(n.number).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
      expect(normaliseContactMobile(n.number, null, null)).toMatchObject({ valid: true, country: 'US' });
      expect(n).toMatchObject({ country: 'US', capabilities: { sms: true, mms: true } });
    }
    expect(new Set(offered.map((n) => n.number)).size).toBe(30);
    expect(await sim.availableNumbers({ country: 'US', limit: 30 })).toEqual(offered);

    const account = await createAccount(database.db);
    const held = offered[0]?.number ?? '';
    const row = await createPhoneNumber(database.db, account.id, { number: held });
    const next = await sim.availableNumbers({ country: 'US', limit: 30 });
    expect(next.map((n) => n.number)).not.toContain(held);
    expect(next.slice(0, 29)).toEqual(offered.slice(1));
    await database.db.execute(sql`update phone_numbers set status = 'released' where id = ${row.id}`);
    expect((await sim.availableNumbers({ country: 'US', limit: 1 }))[0]?.number).toBe(held);

    for (const country of ['CA', 'GB', 'AU']) {
      const numbers = await sim.availableNumbers({ country, limit: 5 });
      expect(numbers.length, country).toBe(5);
      for (const n of numbers) expect(normaliseContactMobile(n.number, null, null), n.number).toMatchObject({ valid: true, country });
    }
    expect(await sim.availableNumbers({ country: 'FR', limit: 5 })).toEqual([]);

    expect(await sim.buyNumber(held)).toEqual({ carrierNumberId: `sim-${held}` });
    await expect(sim.buyNumber('+12025551234')).rejects.toBeInstanceOf(SimulatorNumberUnavailableError);
  });

  it('places a verification call that reads the code out on the virtual phone', async () => {
    const sim = carrier();
    await sim.placeVerificationCall({ from: null, to: phones[2] ?? '', code: '481516' });
    await sim.placeVerificationCall({ from: business, to: phones[2] ?? '', code: '000042' });
    const rows = await database.db.select().from(simulatorMessages).orderBy(simulatorMessages.body);
    expect(rows.map((r) => ({ kind: r.kind, from: r.businessNumber, to: r.phoneNumber, body: r.body, status: r.status, due: r.dueAt }))).toEqual([
      { kind: 'call', from: business, to: phones[2], body: 'Your Parley verification code is 0 0 0 0 4 2', status: 'placed', due: null },
      { kind: 'call', from: 'Parley', to: phones[2], body: 'Your Parley verification code is 4 8 1 5 1 6', status: 'placed', due: null },
    ]);
  });

  it('stops its loop and waits for the round in progress', async () => {
    await saveSimulatorSettings(database.db, { ...plainSettings, latencyMs: 0 });
    let release: () => void = () => undefined;
    const entered = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const sim = carrier();
    await sim.start({
      ...recordingHandlers().handlers,
      statusMany: async () => {
        release();
        await new Promise((resolve) => setTimeout(resolve, 100));
        finished = true;
      },
    });
    await sim.send(message(phones[0] ?? ''));
    await entered;
    await sim.stop();
    expect(finished).toBe(true);
  });
});
