import { spawn } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import readline from 'node:readline';
import http from 'node:http';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import type { BenchContext, Benchmark, DatabaseTarget } from '../lib/benchmark.js';
import { freePort } from '../lib/freePort.js';
import { ratio } from '../lib/load.js';
import { repoRoot } from '../lib/paths.js';
import { scratchPostgres } from '../lib/scratchPostgres.js';
import { startServerProcess } from '../lib/serverProcess.js';
import { tempDir } from '../lib/tempDir.js';

/*
 * Inbound to websocket: the time from a carrier's inbound webhook request (Twilio's, signed as Twilio signs
 * it) to the messageReceived event at a connected websocket client of the account, while a 20,000-message
 * campaign is being sent from four simulator numbers: queued through the API in batches (BATCH recipients a
 * request, BENCH_INBOUND_BATCH to change it; a campaign runner sends in batches too) while the dispatcher,
 * the receipts and 40,000 status events compete with the inbound path for the database, the outbox and the
 * socket. On PostgreSQL the server runs as it is deployed, a web process and a worker process; on PGlite as
 * one process, as embedded mode does. The account has history (a conversation and a delivered message per
 * campaign contact) and table statistics, as one that has been sending for a while. Baseline, in the same
 * run: the same inbound requests to the idle server. Target (DESIGN.md): p99 under 100 ms while a campaign
 * is sending.
 */

const CAMPAIGN = 20_000;
const BATCH = Number(process.env.BENCH_INBOUND_BATCH ?? '100');
const NUMBERS = 4;
const RATE_PER_NUMBER = 2_500;
const INBOUND_CONTACTS = 500;
const INBOUND_INTERVAL_MS = 50;
const BASELINE_SAMPLES = 100;
const TARGET_P99_MS = 100;
const PRICE = '0.0079';
const AUTH_TOKEN = 'bench-twilio-auth-token';
const ACCOUNT_SID = `AC${'0'.repeat(32)}`;

const serverDist = path.join(repoRoot, 'apps', 'server', 'dist');

interface Database {
  readonly pool?: { query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
  readonly pglite?: { query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
  readonly db: unknown;
  close(): Promise<void>;
}
interface Modules {
  openDatabase(options: { databaseUrl: string | null; dataDir: string; poolMax: number }): Promise<Database>;
  migrateDatabase(database: Database): Promise<void>;
  registerApiClient(db: unknown, input: { clientId: string; secret: string; accountId: string }): Promise<void>;
}

async function load<T>(...segments: string[]): Promise<T> {
  return (await import(pathToFileURL(path.join(...segments)).href)) as T;
}

async function modules(): Promise<Modules> {
  const client = await load<Pick<Modules, 'openDatabase'>>(serverDist, 'db', 'client.js');
  const migrate = await load<Pick<Modules, 'migrateDatabase'>>(serverDist, 'db', 'migrate.js');
  const apiClients = await load<Pick<Modules, 'registerApiClient'>>(serverDist, 'identity', 'issuer', 'apiClients.js');
  return { ...client, ...migrate, ...apiClients };
}

/** Where the server keeps its data: a database of the run's own on PostgreSQL (dropped after), or a PGlite dir. */
async function storage(m: Modules, target: DatabaseTarget, context: BenchContext): Promise<{ databaseUrl: string | null; dataDir: string }> {
  const dataDir = await tempDir('parley-bench-inbound-', context.scope);
  if (target.kind === 'pglite') return { databaseUrl: null, dataDir };
  return { databaseUrl: await scratchPostgres(target.url, 'parley_inbound', context.scope), dataDir };
}

interface Fixture {
  accountId: string;
  clientId: string;
  secret: string;
  twilioNumber: string;
  campaignContacts: string[];
  inboundNumbers: string[];
}

async function insertRows(database: Database, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const driver = database.pool ?? database.pglite;
  if (driver === undefined) throw new Error('no driver to send bare statements');
  for (let at = 0; at < rows.length; at += 1000) {
    const values: unknown[] = [];
    const tuples = rows.slice(at, at + 1000).map((row) => {
      const first = values.length;
      values.push(...row);
      return `(${row.map((_, i) => `$${String(first + i + 1)}`).join(', ')})`;
    });
    await driver.query(`insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`, values);
  }
}

/** The account, its numbers, contacts, balance and API client, written before the server starts. */
async function setUp(m: Modules, where: { databaseUrl: string | null; dataDir: string }): Promise<Fixture> {
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
    await insertRows(
      database,
      'phone_numbers',
      numberColumns,
      Array.from({ length: NUMBERS }, (_, i) => [randomUUID(), accountId, `+1202555${String(100 + i).padStart(4, '0')}`, 'US', 'simulator', 'active', new Date(), RATE_PER_NUMBER]),
    );
    const twilioNumber = '+12025550190';
    await row('phone_numbers', numberColumns, [randomUUID(), accountId, twilioNumber, 'US', 'twilio', 'active', new Date(), 10]);
    const campaignContacts = Array.from({ length: CAMPAIGN }, () => randomUUID());
    await insertRows(
      database,
      'contacts',
      ['id', 'account_id', 'first_name', 'mobile_number', 'mobile_country'],
      campaignContacts.map((id, i) => [id, accountId, `Contact ${String(i)}`, `+1415${String(2_000_000 + i).padStart(7, '0')}`, 'US']),
    );
    const inboundNumbers = Array.from({ length: INBOUND_CONTACTS }, (_, i) => `+1415${String(5_000_000 + i).padStart(7, '0')}`);
    await insertRows(
      database,
      'contacts',
      ['id', 'account_id', 'first_name', 'mobile_number', 'mobile_country'],
      inboundNumbers.map((number, i) => [randomUUID(), accountId, `Customer ${String(i)}`, number, 'US']),
    );
    // History: each campaign contact already talks to one of the numbers (an open conversation and a message
    // delivered yesterday), as in an account that has been sending for a while; the campaign adds to it.
    const numberRows = await (database.pool ?? database.pglite)?.query(
      `select id, number from phone_numbers where account_id = $1 and carrier = 'simulator' order by number`,
      [accountId],
    );
    const senders = (numberRows?.rows ?? []) as { id: string; number: string }[];
    const conversations = campaignContacts.map((contactId, i) => ({ id: randomUUID(), contactId, sender: senders[i % senders.length] }));
    await insertRows(
      database,
      'conversations',
      ['id', 'account_id', 'contact_id', 'phone_number_id'],
      conversations.map((c) => [c.id, accountId, c.contactId, c.sender?.id]),
    );
    const yesterday = new Date(Date.now() - 86_400_000);
    await insertRows(
      database,
      'messages',
      ['id', 'account_id', 'conversation_id', 'contact_id', 'phone_number_id', 'direction', 'from_number', 'to_number', 'body', 'segments', 'price', 'status', 'carrier', 'carrier_message_id', 'created_at', 'sent_at', 'status_at'],
      // Delivered through the carrier, so each has the carrier's id, as real history does.
      conversations.map((c, i) => [
        randomUUID(), accountId, c.id, c.contactId, c.sender?.id, 'outbound', c.sender?.number, `+1415${String(2_000_000 + i).padStart(7, '0')}`,
        'Your order has shipped.', 1, PRICE, 'delivered', 'simulator', `SM${randomUUID()}`, yesterday, yesterday, yesterday,
      ]),
    );
    // What autovacuum does to tables that grew like this; without statistics the planner takes them for empty.
    await (database.pool ?? database.pglite)?.query('analyze');
    const clientId = `bench-${randomUUID()}`;
    const secret = randomBytes(32).toString('hex');
    await m.registerApiClient(database.db, { clientId, secret, accountId });
    return { accountId, clientId, secret, twilioNumber, campaignContacts, inboundNumbers };
  } finally {
    await database.close();
  }
}

/** A stand-in for Twilio's REST API: the deployment's Twilio adapter is configured but sends nothing here. */
async function twilioApi(context: BenchContext): Promise<string> {
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const port = await freePort('127.0.0.1');
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  context.scope.defer(() => new Promise<void>((resolve) => server.close(() => { resolve(); })));
  return `http://127.0.0.1:${String(port)}`;
}

async function accessToken(url: string, f: Fixture): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(f.clientId)}:${encodeURIComponent(f.secret)}`).toString('base64');
  const response = await fetch(`${url}/oidc/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || body.access_token === undefined) throw new Error(`no token: ${String(response.status)} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** X-Twilio-Signature: HMAC-SHA1 of the URL followed by each parameter's name and value, sorted by name. */
function twilioSignature(url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + (params[key] ?? ''), url);
  return createHmac('sha1', AUTH_TOKEN).update(data, 'utf8').digest('base64');
}

interface Sample {
  /** From sending the request to the messageReceived event at the socket. */
  eventMs: number;
  /** From sending the request to the webhook's answer (the message is stored by then). */
  webhookMs: number;
  /** When the request was sent (performance.now()). */
  sentAt: number;
}

interface Probe {
  /** Sends one inbound message and resolves once its event reached the socket. */
  send(from: string): Promise<Sample>;
}

function inboundProbe(url: string, f: Fixture, socket: Socket): Probe {
  const waiting = new Map<string, (at: number) => void>();
  socket.on('event', (event: { type: string; data: { message?: { message?: string } } }) => {
    if (event.type !== 'messageReceived') return;
    const text = event.data.message?.message ?? '';
    waiting.get(text)?.(performance.now());
  });
  const webhook = `${url}/v1/carriers/twilio/inbound`;
  return {
    async send(from) {
      const nonce = `Bench inbound ${randomUUID()}`;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(nonce);
          reject(new Error(`no messageReceived event within 30 s for ${nonce}`));
        }, 30_000);
        waiting.set(nonce, (at) => {
          clearTimeout(timer);
          waiting.delete(nonce);
          resolve(at);
        });
      });
      const params = {
        MessageSid: `SM${randomBytes(16).toString('hex')}`,
        AccountSid: ACCOUNT_SID,
        From: from,
        To: f.twilioNumber,
        Body: nonce,
        NumMedia: '0',
      };
      // Awaited below; until then a timeout must not count as an unhandled rejection.
      arrived.catch(() => undefined);
      const started = performance.now();
      const response = await fetch(webhook, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(webhook, params) },
        body: new URLSearchParams(params),
      });
      await response.arrayBuffer();
      const answered = performance.now();
      if (!response.ok) throw new Error(`the inbound webhook answered ${String(response.status)}`);
      return { eventMs: (await arrived) - started, webhookMs: answered - started, sentAt: started };
    },
  };
}

function percentiles(samples: number[]): { samples: number; p50: number; p99: number; max: number; mean: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  const round = (v: number): number => Math.round(v * 10) / 10;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length);
  return { samples: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(sorted.at(-1) ?? 0), mean: round(mean) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Inbound probes every INBOUND_INTERVAL_MS until `until` says stop (each probe on its own, not waiting for the last). */
async function probeWhile(probe: Probe, f: Fixture, until: () => boolean, minimum: number): Promise<Sample[]> {
  const pending: Promise<Sample>[] = [];
  let i = 0;
  while (!until() || pending.length < minimum) {
    const sent = probe.send(f.inboundNumbers[i % f.inboundNumbers.length] ?? '');
    // Awaited together at the end; a failure then fails the run, not the process before it.
    sent.catch(() => undefined);
    pending.push(sent);
    i += 1;
    await sleep(INBOUND_INTERVAL_MS);
  }
  return Promise.all(pending);
}

async function campaign(url: string, token: string, f: Fixture): Promise<void> {
  for (let at = 0; at < f.campaignContacts.length; at += BATCH) {
    const response = await fetch(`${url}/v1/accounts/${f.accountId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        contacts: f.campaignContacts.slice(at, at + BATCH),
        template: 'Hi {{{firstName}}}, your appointment at Harbor Dental is tomorrow at 10:00. Reply STOP to opt out.',
      }),
    });
    const body = await response.text();
    if (response.status !== 201) throw new Error(`queueing the campaign answered ${String(response.status)}: ${body.slice(0, 300)}`);
  }
}

/** A worker-only process (it serves no HTTP): ready once it logs that it runs. */
async function startWorker(env: Record<string, string>, context: BenchContext): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(serverDist, 'main.js')], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => {
        resolve();
      });
      child.kill('SIGTERM');
    }));
  context.scope.defer(stop);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error('the worker did not start within 60 s'));
    }, 60_000);
    child.once('exit', (code) => {
      reject(new Error(`the worker exited with code ${String(code)}`));
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"msg":"Parley is running"')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { stop };
}

/** BENCH_SERVER_NODE_ARGS (say `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server under test. */
const serverNodeArgs = (): string[] => (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');

export const inboundBenchmark: Benchmark = {
  description: `Inbound webhook to the websocket event at a connected client, while a ${CAMPAIGN.toLocaleString('en')}-message campaign is sending, beside the same on an idle server`,
  async run(context) {
    const m = await modules();
    const where = await storage(m, context.database, context);
    context.log(`set-up on ${context.database.kind}: account, ${String(NUMBERS)} simulator numbers, a Twilio number, ${String(CAMPAIGN + INBOUND_CONTACTS)} contacts`);
    const f = await setUp(m, where);
    const port = await freePort('127.0.0.1');
    const url = `http://127.0.0.1:${String(port)}`;
    const env: Record<string, string> = {
      LOG_LEVEL: 'warn',
      DATA_DIR: where.dataDir,
      PUBLIC_URL: url,
      SIMULATOR: 'true',
      TWILIO_ACCOUNT_SID: ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: AUTH_TOKEN,
      TWILIO_API_BASE_URL: await twilioApi(context),
      ...(where.databaseUrl === null ? {} : { DATABASE_URL: where.databaseUrl }),
    };
    // PostgreSQL runs as it is deployed: a web process (requests, websockets) and a worker process (dispatcher,
    // receipts, outbox). PGlite is one process, as embedded mode is.
    const split = where.databaseUrl !== null;
    const server = await startServerProcess(
      { name: 'parley', script: path.join(serverDist, 'main.js'), env: { ...env, ...(split ? { SERVICES: 'web' } : {}) }, readyPath: '/healthz', port, nodeArgs: serverNodeArgs() },
      context.scope,
    );
    const worker = split ? await startWorker({ ...env, SERVICES: 'worker', LOG_LEVEL: 'info' }, context) : null;
    const token = await accessToken(url, f);
    const socket = io(url, { path: '/socket.io', transports: ['websocket'], auth: { token, accountId: f.accountId } });
    context.scope.defer(() => {
      socket.close();
      return Promise.resolve();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => { resolve(); });
      socket.once('connect_error', reject);
    });
    const probe = inboundProbe(url, f, socket);
    // Warm-up: the first requests compile the route and statements.
    for (let i = 0; i < 20; i += 1) await probe.send(f.inboundNumbers[i] ?? '');

    context.log(`baseline: ${String(BASELINE_SAMPLES)} inbound messages to the idle server`);
    let baselineSent = 0;
    const baselineSamples = await probeWhile(probe, f, () => (baselineSent += 1) > BASELINE_SAMPLES, 0);

    const delivered = new Set<string>();
    socket.on('event', (event: { type: string; data: { message?: { id: string; status: string; outgoing: boolean } } }) => {
      const message = event.data.message;
      if (event.type === 'messageStatus' && message?.outgoing === true && message.status === 'delivered') delivered.add(message.id);
    });
    context.log(`measured: queueing ${String(CAMPAIGN)} messages (${String(BATCH)} a request) while inbound messages arrive`);
    const started = performance.now();
    let queuedMs = 0;
    const queueing = campaign(url, token, f).then(() => {
      queuedMs = performance.now() - started;
    });
    let lastLog = performance.now();
    const samples = await probeWhile(
      probe,
      f,
      () => {
        if (performance.now() - lastLog > 5000) {
          lastLog = performance.now();
          context.log(`  ${String(Math.round((performance.now() - started) / 1000))} s: ${String(delivered.size)} delivered`);
        }
        if (performance.now() - started > 600_000) throw new Error(`gave up after 600 s with ${String(delivered.size)} delivered`);
        return delivered.size >= CAMPAIGN;
      },
      50,
    );
    await queueing;
    // Each sample on a line (sent at, webhook, event; ms from the start), to see when the slow ones happen.
    if (process.env.BENCH_INBOUND_TRACE !== undefined) {
      const lines = samples.map((s) => `${String(Math.round(s.sentAt - started))} ${s.webhookMs.toFixed(1)} ${s.eventMs.toFixed(1)}`);
      await writeFile(process.env.BENCH_INBOUND_TRACE, `${lines.join('\n')}\nqueued ${String(Math.round(queuedMs))}\n`);
    }
    const campaignMs = performance.now() - started;
    await worker?.stop();
    await server.stop();

    const measured = { ...percentiles(samples.map((s) => s.eventMs)), webhookMs: percentiles(samples.map((s) => s.webhookMs)), campaignMessages: CAMPAIGN, campaignDelivered: delivered.size, campaignQueuedSeconds: Math.round(queuedMs) / 1000, campaignSeconds: Math.round(campaignMs) / 1000 };
    const baseline = { ...percentiles(baselineSamples.map((s) => s.eventMs)), webhookMs: percentiles(baselineSamples.map((s) => s.webhookMs)) };
    context.log(`measured: p50 ${String(measured.p50)} ms, p99 ${String(measured.p99)} ms over ${String(measured.samples)}; idle p99 ${String(baseline.p99)} ms`);
    return {
      parameters: {
        campaignMessages: CAMPAIGN,
        requestBatch: BATCH,
        processes: context.database.kind === 'postgres' ? 'web + worker' : 'one',
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
