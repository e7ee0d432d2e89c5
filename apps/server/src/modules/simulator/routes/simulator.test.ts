import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIMULATOR_ERROR_CODES_NEEDED_MESSAGE,
  SIMULATOR_ERROR_CODES_UNIQUE_MESSAGE,
  SIMULATOR_FAILURE_RATE_MESSAGE,
  SIMULATOR_MESSAGE_OR_PICTURE_MESSAGE,
  SIMULATOR_NUMBER_MESSAGE,
  type Pagination,
  type SimulatorMessage,
  type SimulatorPhone,
  type SimulatorSettings,
} from '@parley/shared';
import type { OutboundMessage } from '../../carriers/carrier.js';
import { createCarrierRegistry } from '../../carriers/registry.js';
import { sendFromPhone } from '../../carriers/simulator/phones.js';
import { defaultSimulatorErrorCodes, loadSimulatorSettings, saveSimulatorSettings } from '../../carriers/simulator/settings.js';
import { SimulatorCarrier } from '../../carriers/simulator/simulatorCarrier.js';
import { simulatorMessages } from '../../../platform/db/schema/index.js';
import { buildApp, type App } from '../../../app/httpApp.js';
import { JobQueue } from '../../../platform/jobs/queue.js';
import { createLocalMailbox } from '../../../platform/mail/localMailbox.js';
import { TableAuthenticator } from '../../../test/apiHarness.js';
import { testConfig } from '../../../test/config.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { silentLogger } from '../../../test/logger.js';
import { createPhoneNumber } from '../../../test/phoneNumbers.js';
import { useRouteHarness } from '../../../test/routeHarness.js';
import { createMessageHandlers } from '../../messaging/handlers.js';

const publicUrl = 'https://parley.example';
const phoneA = '+14155550111';
const phoneB = '+14155550122';
const validSettings = { seed: 42, latencyMs: 250, failureRate: 0.125, messagesPerSecond: 50, errorCodes: [...defaultSimulatorErrorCodes] };

const outbound = (from: string, to: string, text: string): OutboundMessage => ({
  id: randomUUID(),
  accountId: randomUUID(),
  from,
  to,
  text,
  encoding: 'GSM-7',
  segments: 1,
  media: [],
});

describe.each(testDatabaseKinds)('simulator routes on %s', (kind) => {
  const { h, fixtures, tokens, ownAccount } = useRouteHarness(kind, { env: { PUBLIC_URL: publicUrl } });
  let sim: SimulatorCarrier;

  beforeAll(async () => {
    sim = new SimulatorCarrier({ database: h.database, log: silentLogger() });
    await saveSimulatorSettings(h.database.db, { ...validSettings, failureRate: 0, latencyMs: 1000 });
  });

  const url = (acc: string, rest = '') => `/v1/accounts/${acc}/simulator${rest}`;
  const thread = async (acc: string, phone: string, token: string) => h.call('GET', url(acc, `/phones/${encodeURIComponent(phone)}/messages`), token);

  /** An account with a simulator number that texted a phone, and the phone's answer. */
  async function talkingAccount() {
    const own = await ownAccount();
    const number = (await createPhoneNumber(h.database.db, own.account.id)).number;
    return { ...own, number };
  }

  it("lists the phones that talked with the account's numbers, newest first, and never another account's", async () => {
    const a = await talkingAccount();
    const b = await talkingAccount();
    await sim.sendMany([outbound(a.number, phoneA, 'Hello from A'), outbound(a.number, phoneA, 'Again from A')]);
    await sim.sendMany([outbound(b.number, phoneB, 'Hello from B'), outbound(b.number, phoneA, 'B to the same phone')]);
    await sendFromPhone(h.database.db, { phone: phoneA, to: a.number, body: 'Reply to A', picture: false, publicUrl });
    // A later phone of A's: it comes first.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await sim.send(outbound(a.number, '+14155550133', 'Newest'));

    const res = await h.call('GET', url(a.account.id, '/phones'), a.token);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<{ data: SimulatorPhone[]; pagination: Pagination }>();
    expect(list.pagination).toEqual({ totalCount: 2, offset: 0, limit: 10 });
    expect(list.data.map((p) => p.number)).toEqual(['+14155550133', phoneA]);
    expect(list.data[1]).toEqual({
      number: phoneA,
      country: 'US',
      businessNumbers: [a.number],
      counts: { received: 2, sent: 1, calls: 0 },
      lastActivity: { at: expect.any(String) as string },
      updated: { at: expect.any(String) as string },
    });
    const paged = (await h.call('GET', url(a.account.id, '/phones?limit=1&offset=1'), a.token)).json<{ data: SimulatorPhone[]; pagination: Pagination }>();
    expect(paged).toMatchObject({ data: [{ number: phoneA }], pagination: { totalCount: 2, offset: 1, limit: 1 } });

    const listB = (await h.call('GET', url(b.account.id, '/phones'), b.token)).json<{ data: SimulatorPhone[] }>();
    expect(listB.data.map((p) => p.number).sort()).toEqual([phoneA, phoneB].sort());
    expect(listB.data.find((p) => p.number === phoneA)?.counts).toEqual({ received: 1, sent: 0, calls: 0 });

    // The thread holds A's exchanges with the phone only, oldest first, with statuses.
    const own = await thread(a.account.id, phoneA, a.token);
    expect(own.statusCode, own.body).toBe(200);
    const items = own.json<{ data: SimulatorMessage[]; pagination: Pagination }>();
    expect(items.data.map((m) => [m.kind, m.body, m.status, m.businessNumber])).toEqual([
      ['mt', 'Hello from A', 'accepted', a.number],
      ['mt', 'Again from A', 'accepted', a.number],
      ['mo', 'Reply to A', 'pending', a.number],
    ]);
    expect(items.pagination.totalCount).toBe(3);
    // Written without the + too.
    expect((await thread(a.account.id, phoneA.slice(1), a.token)).statusCode).toBe(200);
    // B's phone is not A's to see; nor is a malformed one.
    const foreign = await thread(a.account.id, phoneB, a.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'not_found', message: 'The phone was not found.' } });
    expect((await thread(a.account.id, 'not-a-phone', a.token)).statusCode).toBe(404);

    // Receipts and handed messages show on the thread, and move the phone's updated time (not its activity).
    const later = new SimulatorCarrier({ database: h.database, log: silentLogger(), clock: () => new Date(Date.now() + 60_000) });
    const noop = () => Promise.resolve();
    await later.start({ status: noop, statusMany: noop, inbound: noop });
    await later.stop();
    await later.pollOnce();
    const after = (await thread(a.account.id, phoneA, a.token)).json<{ data: SimulatorMessage[] }>().data;
    expect(after.map((m) => m.status)).toEqual(['delivered', 'delivered', 'handed']);
    const moved = (await h.call('GET', url(a.account.id, '/phones'), a.token)).json<{ data: SimulatorPhone[] }>().data[1];
    expect(moved?.lastActivity).toEqual(list.data[1]?.lastActivity);
    expect(Date.parse(moved?.updated.at ?? '')).toBeGreaterThan(Date.parse(list.data[1]?.updated.at ?? ''));
  });

  it('shows a failed message with its error, and a verification call with its code, to the account that owns the number', async () => {
    const a = await talkingAccount();
    const b = await talkingAccount();
    await saveSimulatorSettings(h.database.db, {
      ...validSettings,
      failureRate: 1,
      errorCodes: [{ code: '21610', text: 'Attempt to send to unsubscribed recipient', stage: 'submit' }],
    });
    try {
      await sim.send(outbound(a.number, '+14155550144', 'Refused'));
    } finally {
      await saveSimulatorSettings(h.database.db, { ...validSettings, failureRate: 0, latencyMs: 1000 });
    }
    const failed = (await thread(a.account.id, '+14155550144', a.token)).json<{ data: SimulatorMessage[] }>().data;
    expect(failed).toMatchObject([{ kind: 'mt', status: 'failed', error: { code: '21610', text: 'Attempt to send to unsubscribed recipient' } }]);

    await sim.placeVerificationCall({ from: null, to: a.number, code: '481516' });
    const phones = (await h.call('GET', url(a.account.id, '/phones'), a.token)).json<{ data: SimulatorPhone[] }>().data;
    expect(phones.find((p) => p.number === a.number)).toMatchObject({ businessNumbers: [], counts: { received: 0, sent: 0, calls: 1 } });
    const call = (await thread(a.account.id, a.number, a.token)).json<{ data: SimulatorMessage[] }>().data;
    expect(call).toMatchObject([{ kind: 'call', body: 'Your Parley verification code is 4 8 1 5 1 6', businessNumber: 'Parley', status: 'placed' }]);
    expect((await thread(b.account.id, a.number, b.token)).statusCode).toBe(404);
  });

  it("lets a virtual phone text the account's simulator numbers, for the roles that may send", async () => {
    const number = (await createPhoneNumber(h.database.db, fixtures.accountId)).number;
    const other = await talkingAccount();
    const inactive = (await createPhoneNumber(h.database.db, fixtures.accountId, { status: 'unverified' })).number;
    const post = (token: string, body: object, phone = phoneA) =>
      h.call('POST', url(fixtures.accountId, `/phones/${encodeURIComponent(phone)}/messages`), token, body);

    const sent = await post(tokens.Sender, { to: number, body: 'Hi there' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toEqual({
      data: {
        id: expect.any(String) as string,
        kind: 'mo',
        businessNumber: number,
        phoneNumber: phoneA,
        body: 'Hi there',
        media: [],
        status: 'pending',
        error: null,
        created: { at: expect.any(String) as string },
      },
    });
    const stop = await post(tokens.CampaignManager, { to: number, body: 'STOP' });
    expect(stop.statusCode).toBe(201);
    const picture = await post(tokens.Administrator, { to: number, picture: true });
    expect(picture.statusCode, picture.body).toBe(201);
    expect(picture.json<{ data: SimulatorMessage }>().data.media).toEqual([
      { url: `${publicUrl}/v1/simulator/media/sunrise.png`, contentType: 'image/png' },
    ]);
    const next = await post(tokens.Administrator, { to: number, body: 'And another', picture: true });
    expect(next.json<{ data: SimulatorMessage }>().data.media[0]?.url).toBe(`${publicUrl}/v1/simulator/media/ocean.png`);

    const before = await h.database.db.select().from(simulatorMessages).where(eq(simulatorMessages.phoneNumber, phoneA));
    const refused = await post(tokens.ReadOnly, { to: number, body: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 'forbidden', message: 'Your role (Read Only) may not do this: send messages.' } });
    for (const [body, message] of [
      [{ to: other.number, body: 'Not ours' }, `to: ${SIMULATOR_NUMBER_MESSAGE}`],
      [{ to: inactive, body: 'Not active' }, `to: ${SIMULATOR_NUMBER_MESSAGE}`],
      [{ to: number, body: '   ' }, `body: ${SIMULATOR_MESSAGE_OR_PICTURE_MESSAGE}`],
    ] as const) {
      const res = await post(tokens.Administrator, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    expect((await post(tokens.Administrator, { to: number, body: 'x' }, number)).statusCode).toBe(400);
    expect((await post(tokens.Administrator, { to: number, body: 'x' }, '12')).statusCode).toBe(404);
    const after = await h.database.db.select().from(simulatorMessages).where(eq(simulatorMessages.phoneNumber, phoneA));
    expect(after).toHaveLength(before.length);

    const numbers = await h.call('GET', url(fixtures.accountId, '/numbers'), tokens.ReadOnly);
    expect(numbers.json()).toEqual({ data: [{ number, name: '' }] });
  });

  it('shows the settings to every role and lets administrators change them, refusing bad values with nothing changed', async () => {
    const read = await h.call('GET', url(fixtures.accountId, '/settings'), tokens.ReadOnly);
    expect(read.statusCode).toBe(200);
    expect(read.json<{ data: SimulatorSettings }>().data).toMatchObject({ latencyMs: 1000, failureRate: 0, messagesPerSecond: 50 });

    expect((await h.call('PUT', url(fixtures.accountId, '/settings'), tokens.CampaignManager, validSettings)).statusCode).toBe(403);
    const saved = await h.call('PUT', url(fixtures.accountId, '/settings'), tokens.Administrator, validSettings);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ data: { ...validSettings, updated: { at: expect.any(String) as string } } });
    expect((await h.call('GET', url(fixtures.accountId, '/settings'), tokens.Sender)).json()).toEqual(saved.json());

    const bad: [object, string][] = [
      [{ latencyMs: 60_001 }, 'latencyMs: The latency must be between 0 and 60000'],
      [{ latencyMs: -1 }, 'latencyMs: The latency must be between 0 and 60000'],
      [{ failureRate: 0.12345 }, `failureRate: ${SIMULATOR_FAILURE_RATE_MESSAGE}`],
      [{ failureRate: 1.5 }, `failureRate: ${SIMULATOR_FAILURE_RATE_MESSAGE}`],
      [{ messagesPerSecond: 0 }, 'messagesPerSecond: Messages per second must be between 1 and 10000'],
      [{ messagesPerSecond: 10_001 }, 'messagesPerSecond: Messages per second must be between 1 and 10000'],
      [{ seed: 1.5 }, 'seed: The seed must be a whole number'],
      [{ errorCodes: [] }, `errorCodes: ${SIMULATOR_ERROR_CODES_NEEDED_MESSAGE}`],
      [
        { errorCodes: [{ code: '1', text: 'a', stage: 'submit' }, { code: '1', text: 'b', stage: 'delivery' }] },
        `errorCodes: ${SIMULATOR_ERROR_CODES_UNIQUE_MESSAGE}`,
      ],
      [{ errorCodes: [{ code: '1', text: 'a', stage: 'later' }] }, "errorCodes.0.stage: The stage is 'submit' or 'delivery'"],
    ];
    for (const [change, message] of bad) {
      const res = await h.call('PUT', url(fixtures.accountId, '/settings'), tokens.Administrator, { ...validSettings, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(message);
    }
    expect((await h.call('GET', url(fixtures.accountId, '/settings'), tokens.Administrator)).json()).toEqual(saved.json());
    // A zero failure rate needs no error codes.
    const none = await h.call('PUT', url(fixtures.accountId, '/settings'), tokens.Administrator, { ...validSettings, failureRate: 0, errorCodes: [] });
    expect(none.statusCode).toBe(200);
    await saveSimulatorSettings(h.database.db, { ...validSettings, failureRate: 0, latencyMs: 1000 });
  });

  it('serves the sample pictures publicly, and nothing else', async () => {
    const res = await h.call('GET', '/v1/simulator/media/forest.png');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((await h.call('GET', '/v1/simulator/media/secrets.txt')).statusCode).toBe(404);
    expect((await h.call('GET', '/v1/simulator/media/..%2Fpackage.json')).statusCode).toBe(404);
  });

  it('documents its routes in the OpenAPI document', async () => {
    const res = await h.call('GET', '/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<{ paths: Record<string, unknown> }>().paths)).toEqual(
      expect.arrayContaining([
        '/v1/accounts/{acc}/simulator/phones',
        '/v1/accounts/{acc}/simulator/phones/{phone}/messages',
        '/v1/accounts/{acc}/simulator/numbers',
        '/v1/accounts/{acc}/simulator/settings',
        '/v1/simulator/media/{name}',
      ]),
    );
  });

  describe('on a deployment without the simulator', () => {
    let app: App;
    let authenticator: TableAuthenticator;
    beforeAll(async () => {
      authenticator = new TableAuthenticator();
      const database = h.database;
      const log = silentLogger();
      app = await buildApp(
        {
          config: testConfig({ PUBLIC_URL: publicUrl }),
          log,
          database,
          jobs: new JobQueue({ database, log, work: false, schedule: false, retryLimit: 0, retryDelaySeconds: 1 }),
          authenticator,
          mailer: createLocalMailbox(database.db),
          carriers: createCarrierRegistry('smpp', { deployment: {} }),
          carrierHandlers: createMessageHandlers({ database, log }),
        },
        { webDist: null },
      );
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
    });

    it('answers 404 on every simulator route and says so in the client config', async () => {
      const token = authenticator.add({ userId: fixtures.users.Administrator, accountIds: [] });
      const before = await loadSimulatorSettings(h.database.db);
      const call = (method: 'GET' | 'POST' | 'PUT', path: string, payload?: object) =>
        app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
      for (const [method, path, payload] of [
        ['GET', url(fixtures.accountId, '/phones')],
        ['GET', url(fixtures.accountId, `/phones/${encodeURIComponent(phoneA)}/messages`)],
        ['POST', url(fixtures.accountId, `/phones/${encodeURIComponent(phoneA)}/messages`), { to: '+12025550100', body: 'Hi' }],
        ['GET', url(fixtures.accountId, '/numbers')],
        ['GET', url(fixtures.accountId, '/settings')],
        ['PUT', url(fixtures.accountId, '/settings'), { ...validSettings, seed: 9 }],
        ['GET', '/v1/simulator/media/forest.png'],
      ] as const) {
        const res = await call(method, path, payload);
        expect(res.statusCode, `${method} ${path}`).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'not_found', message: 'The simulator was not found.' } });
      }
      expect(await loadSimulatorSettings(h.database.db)).toEqual(before);
      expect((await app.inject({ method: 'GET', url: '/v1/config' })).json()).toMatchObject({ simulator: false });
      expect((await h.call('GET', '/v1/config')).json()).toMatchObject({ simulator: true });
      expect(await h.database.db.select().from(simulatorMessages).where(eq(simulatorMessages.body, 'Hi'))).toEqual([]);
    });
  });
});
