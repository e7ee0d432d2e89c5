import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { io, type Socket } from 'socket.io-client';
import type { Benchmark } from '../lib/benchmark.js';
import {
  INBOUND_INTERVAL_MS,
  INBOX_TARGET_P99_MS as TARGET_P99_MS,
  inboundProbe,
  percentiles,
  probeWhile,
  sleep,
  TWILIO_ACCOUNT_SID as ACCOUNT_SID,
  TWILIO_AUTH_TOKEN as AUTH_TOKEN,
  twilioApi,
} from '../lib/inboundProbe.js';
import { ratio } from '../lib/load.js';
import { accessToken, benchStorage, startParley, type Storage } from '../lib/parley.js';
import { databaseModules, insertRows, loadModule, rowsOf, serverDist, type DatabaseModules } from '../lib/serverModules.js';

/*
 * Inbound to websocket: the time from a carrier's inbound webhook request (Twilio's, signed as Twilio signs
 * it) to the messageReceived event at a connected websocket client of the account, while a 20,000-contact
 * campaign is being sent from a group of four simulator numbers: created and executed through the API as a
 * person would, so the worker queues it in the campaign sender's batches (modules/campaigns/campaignExecutionJob.ts) while
 * the dispatcher, the receipts and 40,000 status events compete with the inbound path for the CPU, the
 * database, the outbox and the socket. On PostgreSQL the server runs as it is deployed on one machine, a web
 * process and a worker process that gives way to it (WORKER_NICE); on PGlite as one process, as embedded
 * mode does. The account has history (a conversation
 * and a delivered message per campaign contact, who keeps that number) and table statistics, as one that
 * has been sending for a while. The server is warmed up first, as a running one is: a small campaign with
 * inbound messages arriving during it, none of it measured. Baseline, in the same run: the same inbound
 * requests to the idle server. Target (DESIGN.md): p99 under 100 ms while a campaign is sending, over every
 * sample from the Execute request on; `afterExecuteAnswered` gives the same from its answer on, to tell the
 * audience's write (one transaction, which on PGlite holds the one session) apart from the sending.
 */

const CAMPAIGN = 20_000;
/** The warm-up campaign: one batch of the campaign sender. */
const WARM_UP_CAMPAIGN = 400;
const WARM_UP_MIN_PROBES = 40;
const NUMBERS = 4;
const RATE_PER_NUMBER = 2_500;
const INBOUND_CONTACTS = 500;
const BASELINE_SAMPLES = 100;
const PRICE = '0.0079';
const CAMPAIGN_TAG = 'bench-campaign';
const WARM_UP_TAG = 'bench-warm-up';
/**
 * WORKER_NICE of the worker process: web and worker share this machine, so the worker gives way to the web
 * process as such a deployment is configured (docs/configuration.md); BENCH_WORKER_NICE=0 measures without.
 */
const WORKER_NICE = process.env.BENCH_WORKER_NICE ?? '10';
const TEMPLATE = 'Hi {{{firstName}}}, your appointment at Harbor Dental is tomorrow at 10:00. Reply STOP to opt out.';

interface Modules extends DatabaseModules {
  registerApiClient(db: unknown, input: { clientId: string; secret: string; accountId: string }): Promise<void>;
}

async function modules(): Promise<Modules> {
  const apiClients = await loadModule<Pick<Modules, 'registerApiClient'>>(serverDist, 'modules', 'identity', 'issuer', 'apiClients.js');
  return { ...(await databaseModules()), ...apiClients };
}

interface Fixture {
  accountId: string;
  clientId: string;
  secret: string;
  twilioNumber: string;
  /** The group of the simulator numbers, which campaigns send from. */
  groupId: string;
  inboundNumbers: string[];
}

/**
 * The account, its numbers (four simulator numbers in a group, a Twilio number for inbound), contacts,
 * history, balance and API client, written before the server starts. Campaign contacts carry CAMPAIGN_TAG,
 * the warm-up's WARM_UP_TAG; the inbound customers neither.
 */
async function setUp(m: Modules, where: Storage): Promise<Fixture> {
  const database = await m.openDatabase({ ...where, poolMax: 2 });
  try {
    await m.migrateDatabase(database);
    const accountId = randomUUID();
    const row = (table: string, columns: string[], values: unknown[]): Promise<void> => insertRows(database, table, columns, [values]);
    await row('plans', ['id', 'name', 'price', 'is_trial', 'pricing'], ['bench-plan', 'Bench', '0', false, JSON.stringify({ DEFAULT: { sms: { outbound: PRICE } } })]);
    await row('accounts', ['id', 'name', 'plan_id', 'support', 'questionnaire', 'quiet_hours_enabled', 'balance'], [accountId, 'Inbound bench', 'bench-plan', '{}', '{}', false, '1000.0000']);
    await row('account_transactions', ['id', 'account_id', 'kind', 'amount', 'balance_after', 'description'], [randomUUID(), accountId, 'credit', '1000.0000', '1000.0000', 'Bench credit']);
    await row('simulator_settings', ['id', 'seed', 'latency_ms', 'failure_rate', 'messages_per_second'], [1, 1, 200, 0, 10_000]);
    const numberColumns = ['id', 'account_id', 'number', 'country', 'carrier', 'status', 'verified_at', 'messages_per_second'];
    const senders = Array.from({ length: NUMBERS }, (_, i) => ({ id: randomUUID(), number: `+1202555${String(100 + i).padStart(4, '0')}` }));
    await insertRows(
      database,
      'phone_numbers',
      numberColumns,
      senders.map((n) => [n.id, accountId, n.number, 'US', 'simulator', 'active', new Date(), RATE_PER_NUMBER]),
    );
    const groupId = randomUUID();
    await row('groups', ['id', 'account_id', 'name'], [groupId, accountId, 'Reminders']);
    await insertRows(database, 'group_phone_numbers', ['group_id', 'phone_number_id'], senders.map((n) => [groupId, n.id]));
    const twilioNumber = '+12025550190';
    await row('phone_numbers', numberColumns, [randomUUID(), accountId, twilioNumber, 'US', 'twilio', 'active', new Date(), 10]);
    const contactColumns = ['id', 'account_id', 'first_name', 'mobile_number', 'mobile_country', 'tags', 'sender_phone_number_id'];
    // Each campaign contact talked to one of the numbers before and keeps it (sender_phone_number_id).
    const campaignContacts = Array.from({ length: CAMPAIGN }, (_, i) => ({
      id: randomUUID(),
      mobile: `+1415${String(2_000_000 + i).padStart(7, '0')}`,
      sender: senders[i % senders.length] ?? { id: '', number: '' },
    }));
    await insertRows(
      database,
      'contacts',
      contactColumns,
      campaignContacts.map((c, i) => [c.id, accountId, `Contact ${String(i)}`, c.mobile, 'US', [CAMPAIGN_TAG], c.sender.id]),
    );
    await insertRows(
      database,
      'contacts',
      contactColumns,
      Array.from({ length: WARM_UP_CAMPAIGN }, (_, i) => [randomUUID(), accountId, `Early ${String(i)}`, `+1415${String(4_000_000 + i).padStart(7, '0')}`, 'US', [WARM_UP_TAG], null]),
    );
    const inboundNumbers = Array.from({ length: INBOUND_CONTACTS }, (_, i) => `+1415${String(5_000_000 + i).padStart(7, '0')}`);
    await insertRows(
      database,
      'contacts',
      contactColumns,
      inboundNumbers.map((number, i) => [randomUUID(), accountId, `Customer ${String(i)}`, number, 'US', [], null]),
    );
    // History: each campaign contact's open conversation with its number and a message delivered yesterday,
    // as in an account that has been sending for a while; the campaign adds to it.
    const conversations = campaignContacts.map((c) => ({ ...c, conversationId: randomUUID() }));
    await insertRows(
      database,
      'conversations',
      ['id', 'account_id', 'contact_id', 'phone_number_id'],
      conversations.map((c) => [c.conversationId, accountId, c.id, c.sender.id]),
    );
    const yesterday = new Date(Date.now() - 86_400_000);
    await insertRows(
      database,
      'messages',
      ['id', 'account_id', 'conversation_id', 'contact_id', 'phone_number_id', 'direction', 'from_number', 'to_number', 'body', 'segments', 'price', 'status', 'carrier', 'carrier_message_id', 'created_at', 'sent_at', 'status_at'],
      // Delivered through the carrier, so each has the carrier's id, as real history does.
      conversations.map((c) => [
        randomUUID(), accountId, c.conversationId, c.id, c.sender.id, 'outbound', c.sender.number, c.mobile,
        'Your order has shipped.', 1, PRICE, 'delivered', 'simulator', `SM${randomUUID()}`, yesterday, yesterday, yesterday,
      ]),
    );
    // What autovacuum does to tables that grew like this; without statistics the planner takes them for empty.
    await rowsOf(database, 'analyze');
    const clientId = `bench-${randomUUID()}`;
    const secret = randomBytes(32).toString('hex');
    await m.registerApiClient(database.db, { clientId, secret, accountId });
    return { accountId, clientId, secret, twilioNumber, groupId, inboundNumbers };
  } finally {
    await database.close();
  }
}

let customer = 0;
/** The customers text in turn over the whole run: each one's first message opens its conversation. */
const nextCustomer = (f: Fixture): string => f.inboundNumbers[customer++ % f.inboundNumbers.length] ?? '';

interface Api {
  /** The answer's `data`. */
  post(path: string, body: unknown, expected: number): Promise<Record<string, unknown>>;
}

function api(url: string, token: string, f: Fixture): Api {
  return {
    async post(path, body, expected) {
      const response = await fetch(`${url}/v1/accounts/${f.accountId}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status !== expected) throw new Error(`POST ${path} answered ${String(response.status)}: ${text.slice(0, 300)}`);
      return (JSON.parse(text) as { data: Record<string, unknown> }).data;
    },
  };
}

/** A Manual campaign to the contacts with `tag`, from the group of simulator numbers. */
async function createCampaign(client: Api, f: Fixture, name: string, tag: string): Promise<string> {
  const campaign = await client.post(
    '/campaigns',
    {
      name,
      messagingType: 'transactional',
      phoneNumberFilter: { group: f.groupId },
      trigger: { code: 'M' },
      filters: { tags: [tag] },
      template: TEMPLATE,
    },
    201,
  );
  if (typeof campaign.id !== 'string') throw new Error('the new campaign has no id');
  return campaign.id;
}

/** Executes a campaign: the execution's id (its messages carry it as jobId). */
async function execute(client: Api, campaignId: string, recipients: number): Promise<string> {
  const execution = await client.post(`/campaigns/${campaignId}/execute`, {}, 202);
  if (typeof execution.id !== 'string') throw new Error('the execution has no id');
  if (execution.recipients !== recipients) throw new Error(`the execution has ${String(execution.recipients)} recipients, not ${String(recipients)}`);
  return execution.id;
}

/** Outgoing messages delivered, by execution (jobId), as the socket hears of them. */
function deliveries(socket: Socket): (executionId: string) => number {
  const byExecution = new Map<string, Set<string>>();
  socket.on('event', (event: { type: string; data: { message?: { id: string; status: string; outgoing: boolean; jobId: string | null } } }) => {
    const message = event.data.message;
    if (event.type !== 'messageStatus' || message?.outgoing !== true || message.status !== 'delivered' || message.jobId === null) return;
    const delivered = byExecution.get(message.jobId) ?? new Set<string>();
    delivered.add(message.id);
    byExecution.set(message.jobId, delivered);
  });
  return (executionId) => byExecution.get(executionId)?.size ?? 0;
}

/** When the execution started and finished queueing its messages (campaign_jobs), read after the run. */
async function queueingSeconds(m: Modules, where: Storage, executionId: string): Promise<number | null> {
  const database = await m.openDatabase({ ...where, poolMax: 1 });
  try {
    const [row] = await rowsOf(
      database,
      `select extract(epoch from finished_at - created_at)::float8 as seconds from campaign_jobs where id = $1 and status = 'done'`,
      [executionId],
    );
    return typeof row?.seconds === 'number' ? Math.round(row.seconds * 1000) / 1000 : null;
  } finally {
    await database.close();
  }
}

export const inboundBenchmark: Benchmark = {
  description: `Inbound webhook to the websocket event at a connected client, while a ${CAMPAIGN.toLocaleString('en')}-contact campaign is sending, beside the same on an idle server`,
  async run(context) {
    const m = await modules();
    const where = await benchStorage(context.database, 'inbound', context);
    context.log(`set-up on ${context.database.kind}: account, a group of ${String(NUMBERS)} simulator numbers, a Twilio number, ${String(CAMPAIGN + WARM_UP_CAMPAIGN + INBOUND_CONTACTS)} contacts`);
    const f = await setUp(m, where);
    // PostgreSQL runs as it is deployed: a web process (requests, websockets) and a worker process (jobs,
    // dispatcher, receipts, outbox). PGlite is one process, as embedded mode is.
    const parley = await startParley(
      where,
      { TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, TWILIO_API_BASE_URL: await twilioApi(context), WORKER_NICE },
      context,
    );
    const { url } = parley;
    const token = await accessToken(url, f);
    const client = api(url, token, f);
    const socket = io(url, { path: '/socket.io', transports: ['websocket'], auth: { token, accountId: f.accountId } });
    context.scope.defer(() => {
      socket.close();
      return Promise.resolve();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => { resolve(); });
      socket.once('connect_error', reject);
    });
    const delivered = deliveries(socket);
    const probe = inboundProbe(url, f.twilioNumber, socket);
    const next = (): string => nextCustomer(f);

    // Warm-up, not measured: a server that has been running has compiled its routes, the campaign sender and
    // the dispatcher, and its connections and statements are ready.
    for (let i = 0; i < 20; i += 1) await probe.send(nextCustomer(f));
    context.log(`warm-up: a ${String(WARM_UP_CAMPAIGN)}-contact campaign while inbound messages arrive`);
    const warmUpExecution = await execute(client, await createCampaign(client, f, 'Warm-up', WARM_UP_TAG), WARM_UP_CAMPAIGN);
    const warmUpStarted = performance.now();
    await probeWhile(
      probe,
      next,
      () => {
        if (performance.now() - warmUpStarted > 120_000) throw new Error(`the warm-up campaign was not delivered within 120 s (${String(delivered(warmUpExecution))})`);
        return delivered(warmUpExecution) >= WARM_UP_CAMPAIGN;
      },
      WARM_UP_MIN_PROBES,
    );
    await sleep(1000);

    context.log(`baseline: ${String(BASELINE_SAMPLES)} inbound messages to the idle server`);
    let baselineSent = 0;
    const baselineSamples = await probeWhile(probe, next, () => (baselineSent += 1) > BASELINE_SAMPLES, 0);

    const campaignId = await createCampaign(client, f, 'Appointment reminders', CAMPAIGN_TAG);
    context.log(`measured: executing a ${String(CAMPAIGN)}-contact campaign while inbound messages arrive`);
    const started = performance.now();
    let executionId: string | null = null;
    let executeAnsweredAt = Number.POSITIVE_INFINITY;
    // Awaited below; the probes start with the request, as inbound messages do not wait for it.
    const execution = execute(client, campaignId, CAMPAIGN).then((id) => {
      executeAnsweredAt = performance.now();
      context.log(`  the execute request answered after ${String(Math.round(executeAnsweredAt - started))} ms`);
      return (executionId = id);
    });
    let refused: Error | null = null;
    execution.catch((error: unknown) => (refused = error instanceof Error ? error : new Error(String(error))));
    let lastLog = performance.now();
    const samples = await probeWhile(
      probe,
      next,
      () => {
        if (refused !== null) throw refused;
        const done = executionId === null ? 0 : delivered(executionId);
        if (performance.now() - lastLog > 5000) {
          lastLog = performance.now();
          context.log(`  ${String(Math.round((performance.now() - started) / 1000))} s: ${String(done)} delivered`);
        }
        if (performance.now() - started > 600_000) throw new Error(`gave up after 600 s with ${String(done)} delivered`);
        return done >= CAMPAIGN;
      },
      50,
    );
    const executed = await execution;
    const campaignMs = performance.now() - started;
    // Each sample on a line (sent at, webhook, event; ms from the start), to see when the slow ones happen.
    if (process.env.BENCH_INBOUND_TRACE !== undefined) {
      const lines = samples.map((s) => `${String(Math.round(s.sentAt - started))} ${s.webhookMs.toFixed(1)} ${s.eventMs.toFixed(1)}`);
      await writeFile(process.env.BENCH_INBOUND_TRACE, `${lines.join('\n')}\n`);
    }
    await parley.stop();
    const queuedSeconds = await queueingSeconds(m, where, executed);

    const measured = {
      ...percentiles(samples.map((s) => s.eventMs)),
      webhookMs: percentiles(samples.map((s) => s.webhookMs)),
      // The same, leaving out what was sent while Execute wrote the audience (one transaction): not the target's
      // figure, which counts every sample, but it tells that write apart from the sending.
      afterExecuteAnswered: percentiles(samples.filter((s) => s.sentAt >= executeAnsweredAt).map((s) => s.eventMs)),
      campaignMessages: CAMPAIGN,
      campaignDelivered: delivered(executed),
      campaignQueuedSeconds: queuedSeconds,
      campaignSeconds: Math.round(campaignMs) / 1000,
    };
    const baseline = { ...percentiles(baselineSamples.map((s) => s.eventMs)), webhookMs: percentiles(baselineSamples.map((s) => s.webhookMs)) };
    context.log(`measured: p50 ${String(measured.p50)} ms, p99 ${String(measured.p99)} ms over ${String(measured.samples)}; idle p99 ${String(baseline.p99)} ms`);
    return {
      parameters: {
        campaignMessages: CAMPAIGN,
        campaign: 'created and executed through the API',
        warmUpCampaignMessages: WARM_UP_CAMPAIGN,
        processes: parley.processes,
        workerNice: parley.processes === 'one' ? 'none (one process)' : Number(WORKER_NICE),
        simulatorNumbers: NUMBERS,
        ratePerNumber: RATE_PER_NUMBER,
        inboundIntervalMs: INBOUND_INTERVAL_MS,
        targetP99Ms: TARGET_P99_MS,
      },
      measured: { ...measured, meetsTarget: measured.p99 < TARGET_P99_MS },
      baseline,
      ratios: { p50: ratio(measured.p50, baseline.p50), p99: ratio(measured.p99, baseline.p99) },
    };
  },
};
