import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { BenchContext, Benchmark, DatabaseTarget } from '../lib/benchmark.js';
import { ratio } from '../lib/load.js';
import { repoRoot } from '../lib/paths.js';
import { scratchPostgres } from '../lib/scratchPostgres.js';
import { tempDir } from '../lib/tempDir.js';

/*
 * Campaign fan-out: 100,000 queued messages from four simulator numbers through the engine's own
 * dispatcher, the simulator carrier and the receipt handlers to 'delivered', on the built server's modules
 * in this process (PGlite allows one process per data dir, so the worker's parts run here), with the outbox
 * dispatcher draining the events the engine writes. Beside it, in the same run and database: bare
 * multi-row INSERTs of the same 100,000 message rows (which is also how they are queued). The target
 * (DESIGN.md) is ≥ 2,000 messages/s on PostgreSQL, no duplicate, the ledger equal to the balance.
 */

const MESSAGES = 100_000;
const NUMBERS = 4;
/** Per number; the four together may send 10,000/s, so the engine, not the rate, is what is measured. */
const RATE_PER_NUMBER = 2_500;
const LATENCY_MS = 200;
const ROWS_PER_STATEMENT = 1000;
const TARGET_PER_SECOND = 2_000;
const PRICE = '0.0079';

const serverDist = path.join(repoRoot, 'apps', 'server', 'dist');

interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: { execute(query: unknown): Promise<{ rows: Record<string, unknown>[] } | Record<string, unknown>[]> };
  readonly pool: { query(text: string, values?: unknown[]): Promise<unknown> };
  close(): Promise<void>;
}
interface Startable {
  start(...args: unknown[]): Promise<void>;
  stop(): Promise<void>;
}
interface Modules {
  openDatabase(options: { databaseUrl: string | null; dataDir: string; poolMax: number }): Promise<Database>;
  migrateDatabase(database: Database): Promise<void>;
  SimulatorCarrier: new (options: { database: Database; log: unknown }) => Startable;
  createCarrierRegistry(defaultCarrier: string, factories: { deployment: Record<string, () => unknown> }): Startable;
  createMessageHandlers(options: { database: Database; log: unknown }): unknown;
  MessageDispatcher: new (options: { database: Database; carriers: unknown; log: unknown }) => Startable;
  OutboxDispatcher: new (
    database: Database,
    subscribers: { name: string; types: readonly string[]; deliver(event: unknown): Promise<void> }[],
    log: unknown,
  ) => Startable;
  OUTBOX_DELIVERED_TYPES: readonly string[];
  pino: (options: { level: string }) => unknown;
}

async function load<T>(...segments: string[]): Promise<T> {
  return (await import(pathToFileURL(path.join(...segments)).href)) as T;
}

async function modules(): Promise<Modules> {
  const client = await load<Pick<Modules, 'openDatabase'>>(serverDist, 'platform', 'db', 'client.js');
  const migrate = await load<Pick<Modules, 'migrateDatabase'>>(serverDist, 'platform', 'db', 'migrate.js');
  const simulator = await load<Pick<Modules, 'SimulatorCarrier'>>(serverDist, 'modules', 'carriers', 'simulator', 'simulatorCarrier.js');
  const registry = await load<Pick<Modules, 'createCarrierRegistry'>>(serverDist, 'modules', 'carriers', 'registry.js');
  const handlers = await load<Pick<Modules, 'createMessageHandlers'>>(serverDist, 'modules', 'messaging', 'handlers.js');
  const dispatcher = await load<Pick<Modules, 'MessageDispatcher'>>(serverDist, 'modules', 'messaging', 'dispatcher.js');
  const outbox = await load<Pick<Modules, 'OutboxDispatcher'>>(serverDist, 'platform', 'events', 'outboxDispatcher.js');
  const outboxTypes = await load<Pick<Modules, 'OUTBOX_DELIVERED_TYPES'>>(serverDist, 'platform', 'events', 'outbox.js');
  const pino = await load<{ default: Modules['pino'] }>(repoRoot, 'node_modules', 'pino', 'pino.js');
  return { ...client, ...migrate, ...simulator, ...registry, ...handlers, ...dispatcher, ...outbox, ...outboxTypes, pino: pino.default };
}

/** A database of the run's own on PostgreSQL (dropped after), or PGlite in a temporary directory. */
async function openBenchDatabase(m: Modules, target: DatabaseTarget, context: BenchContext): Promise<Database> {
  let databaseUrl: string | null = null;
  if (target.kind === 'postgres') {
    databaseUrl = await scratchPostgres(target.url, 'parley_fanout', context.scope);
  }
  const dataDir = await tempDir('parley-bench-fanout-', context.scope);
  const database = await m.openDatabase({ databaseUrl, dataDir, poolMax: 10 });
  context.scope.defer(() => database.close());
  await m.migrateDatabase(database);
  return database;
}

function driverOf(database: Database): { query(text: string, values?: unknown[]): Promise<unknown> } {
  return database.pool;
}

async function rowsOf(database: Database, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const result = (await driverOf(database).query(text, values)) as { rows: Record<string, unknown>[] };
  return result.rows;
}

/** Runs `insert into <table> (<columns>) values …` for the rows, ROWS_PER_STATEMENT a statement. */
async function insertRows(database: Database, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const driver = driverOf(database);
  for (let at = 0; at < rows.length; at += ROWS_PER_STATEMENT) {
    const slice = rows.slice(at, at + ROWS_PER_STATEMENT);
    const values: unknown[] = [];
    const tuples = slice.map((row) => {
      const first = values.length;
      values.push(...row);
      return `(${row.map((_, i) => `$${String(first + i + 1)}`).join(', ')})`;
    });
    await driver.query(`insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`, values);
  }
}

interface Fixture {
  accountId: string;
  numbers: { id: string; number: string }[];
  contacts: { id: string; number: string }[];
  conversations: string[];
}

/** An account with its numbers, contacts and conversations, written before any clock starts. */
async function setUp(database: Database, label: string): Promise<Fixture> {
  const accountId = randomUUID();
  await rowsOf(
    database,
    `insert into plans (id, name, price, is_trial, pricing) values ('bench-plan', 'Bench', '0', false,
       '{"DEFAULT":{"sms":{"outbound":"${PRICE}"}}}'::jsonb) on conflict do nothing`,
  );
  await rowsOf(
    database,
    `insert into accounts (id, name, plan_id, support, questionnaire, quiet_hours_enabled) values ($1, $2, 'bench-plan', '{}'::jsonb, '{}'::jsonb, false)`,
    [accountId, `Fan-out ${label} ${accountId.slice(0, 8)}`],
  );
  const numbers = Array.from({ length: NUMBERS }, (_, i) => ({ id: randomUUID(), number: `+1202555${String(100 + i + (label === 'baseline' ? 50 : 0)).padStart(4, '0')}` }));
  await insertRows(
    database,
    'phone_numbers',
    ['id', 'account_id', 'number', 'country', 'carrier', 'status', 'verified_at', 'messages_per_second'],
    numbers.map((n) => [n.id, accountId, n.number, 'US', 'simulator', 'active', new Date(), RATE_PER_NUMBER]),
  );
  const contacts = Array.from({ length: MESSAGES }, (_, i) => ({ id: randomUUID(), number: `+1415${String(2_000_000 + i).padStart(7, '0')}` }));
  await insertRows(
    database,
    'contacts',
    ['id', 'account_id', 'first_name', 'mobile_number', 'mobile_country'],
    contacts.map((c, i) => [c.id, accountId, `Contact ${String(i)}`, c.number, 'US']),
  );
  const conversations = contacts.map(() => randomUUID());
  await insertRows(
    database,
    'conversations',
    ['id', 'account_id', 'contact_id', 'phone_number_id'],
    contacts.map((c, i) => [conversations[i], accountId, c.id, numbers[i % NUMBERS]?.id]),
  );
  return { accountId, numbers, contacts, conversations };
}

const messageColumns = [
  'id', 'account_id', 'conversation_id', 'contact_id', 'phone_number_id', 'direction', 'from_number', 'to_number',
  'body', 'encoding', 'segments', 'price', 'status',
];

/** The queued rows, as messageSender writes them (one GSM-7 segment each, charged PRICE). */
function queuedRows(f: Fixture): unknown[][] {
  return f.contacts.map((c, i) => {
    const number = f.numbers[i % NUMBERS] ?? { id: '', number: '' };
    return [
      randomUUID(), f.accountId, f.conversations[i], c.id, number.id, 'outbound', number.number, c.number,
      `Hi Contact ${String(i)}, your appointment at Harbor Dental is tomorrow at 10:00. Reply STOP to opt out.`,
      'GSM-7', 1, PRICE, 'queued',
    ];
  });
}

/** Charges the account for the queued rows the way the sender does: one debit entry, the balance after it. */
async function charge(database: Database, accountId: string): Promise<void> {
  const total = (BigInt(PRICE.replace('.', '')) * BigInt(MESSAGES)).toString().padStart(5, '0');
  const amount = `${total.slice(0, -4)}.${total.slice(-4)}`;
  await rowsOf(database, `insert into account_transactions (id, account_id, kind, amount, balance_after, description)
     values ($1, $2, 'credit', $3, $3, 'Bench credit')`, [randomUUID(), accountId, amount]);
  await rowsOf(database, `insert into account_transactions (id, account_id, kind, amount, balance_after, description)
     values ($1, $2, 'debit', $3, 0, 'Bench campaign')`, [randomUUID(), accountId, amount]);
}

interface Counts {
  total: number;
  sent: number;
  final: number;
}

async function counts(database: Database, accountId: string): Promise<Counts> {
  const [row] = await rowsOf(
    database,
    `select count(*)::int as total,
            count(*) filter (where sent_at is not null)::int as sent,
            count(*) filter (where status in ('delivered', 'undelivered', 'failed'))::int as final
       from messages where account_id = $1`,
    [accountId],
  );
  return { total: Number(row?.total ?? 0), sent: Number(row?.sent ?? 0), final: Number(row?.final ?? 0) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function measuredFanout(m: Modules, database: Database, f: Fixture, context: BenchContext): Promise<Record<string, unknown>> {
  const log = m.pino({ level: 'warn' });
  // Message events are written already dispatched (platform/events/outbox.ts); the outbox runs as it does in the
  // server, and its count shows that it delivered none of them and left none pending.
  let delivered = 0;
  const counter = { name: 'count', types: m.OUTBOX_DELIVERED_TYPES, deliver: () => ((delivered += 1), Promise.resolve()) };
  const outbox = new m.OutboxDispatcher(database, [counter], log);
  const registry = m.createCarrierRegistry('simulator', {
    deployment: { simulator: () => new m.SimulatorCarrier({ database, log }) },
  });
  const handlers = m.createMessageHandlers({ database, log });
  const dispatcher = new m.MessageDispatcher({ database, carriers: registry, log });
  await outbox.start();
  await registry.start(handlers);
  context.scope.defer(async () => {
    await dispatcher.stop();
    await registry.stop();
    await outbox.stop();
  });

  const started = Date.now();
  await dispatcher.start();
  let now = await counts(database, f.accountId);
  let lastLog = 0;
  while (now.final < MESSAGES) {
    if (Date.now() - started > 900_000) throw new Error(`gave up after 900 s: ${JSON.stringify(now)}`);
    await sleep(200);
    now = await counts(database, f.accountId);
    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      context.log(`  ${String(Math.round((Date.now() - started) / 100) / 10)} s: ${String(now.sent)} sent, ${String(now.final)} final`);
    }
  }
  const ms = Date.now() - started;
  await dispatcher.stop();

  const startedAt = new Date(started).toISOString();
  const [latency] = await rowsOf(
    database,
    `select percentile_cont(0.5) within group (order by extract(epoch from (sent_at - $2::timestamptz)) * 1000) as p50,
            percentile_cont(0.99) within group (order by extract(epoch from (sent_at - $2::timestamptz)) * 1000) as p99,
            percentile_cont(0.5) within group (order by extract(epoch from (status_at - $2::timestamptz)) * 1000) as delivered_p50,
            percentile_cont(0.99) within group (order by extract(epoch from (status_at - $2::timestamptz)) * 1000) as delivered_p99
       from messages where account_id = $1`,
    [f.accountId, startedAt],
  );
  const [statuses] = await rowsOf(
    database,
    `select count(*) filter (where status = 'delivered')::int as delivered,
            count(*) filter (where status <> 'delivered')::int as other,
            (select count(*)::int from simulator_messages s join messages m on m.id::text = s.ref where m.account_id = $1) as handset_rows,
            (select count(distinct s.ref)::int from simulator_messages s join messages m on m.id::text = s.ref where m.account_id = $1) as handset_refs,
            (select balance from accounts where id = $1) as balance,
            (select coalesce(sum(case when kind = 'debit' then -amount else amount end), 0) from account_transactions where account_id = $1) as ledger
       from messages where account_id = $1`,
    [f.accountId],
  );
  // Give the outbox a moment to drain what the last round wrote, then count what it still holds.
  await sleep(1000);
  const [pending] = await rowsOf(database, `select count(*)::int as n from events where dispatched_at is null`);
  const seconds = ms / 1000;
  const round = (v: unknown): number => Math.round(Number(v));
  return {
    messages: MESSAGES,
    seconds,
    messagesPerSecond: Math.round(MESSAGES / seconds),
    queueToSentMs: { p50: round(latency?.p50), p99: round(latency?.p99) },
    queueToDeliveredMs: { p50: round(latency?.delivered_p50), p99: round(latency?.delivered_p99) },
    delivered: Number(statuses?.delivered),
    notDelivered: Number(statuses?.other),
    handsetRows: Number(statuses?.handset_rows),
    duplicates: Number(statuses?.handset_rows) - Number(statuses?.handset_refs),
    balance: String(statuses?.balance),
    ledger: String(statuses?.ledger),
    ledgerEqualsBalance: Number(statuses?.balance) === Number(statuses?.ledger),
    outboxDeliveries: delivered,
    outboxEventsPending: Number(pending?.n),
    meetsTarget: MESSAGES / seconds >= TARGET_PER_SECOND,
  };
}

export const fanoutBenchmark: Benchmark = {
  description: `${MESSAGES.toLocaleString('en')} queued messages through the dispatcher, the simulator and its receipts to delivered, beside bare multi-row INSERTs of the same rows`,
  async run(context) {
    const m = await modules();
    const database = await openBenchDatabase(m, context.database, context);
    context.log(`set-up on ${database.kind}: account, ${String(NUMBERS)} numbers, ${String(MESSAGES)} contacts and conversations`);
    await rowsOf(
      database,
      `insert into simulator_settings (id, seed, latency_ms, failure_rate, messages_per_second) values (1, 1, ${String(LATENCY_MS)}, 0, 10000)
       on conflict (id) do update set latency_ms = excluded.latency_ms, failure_rate = 0, messages_per_second = 10000`,
    );

    // The baseline queues its own copy (another account) with bare statements and times only that.
    const spare = await setUp(database, 'baseline');
    const spareRows = queuedRows(spare).map((row) => [...row.slice(0, -1), 'delivered']);
    context.log(`baseline: bare multi-row INSERTs (${String(ROWS_PER_STATEMENT)} rows each)`);
    const baselineStarted = performance.now();
    await insertRows(database, 'messages', messageColumns, spareRows);
    const baselineMs = performance.now() - baselineStarted;
    const baseline = { messages: MESSAGES, seconds: Math.round(baselineMs) / 1000, messagesPerSecond: Math.round((MESSAGES / baselineMs) * 1000) };
    context.log(`baseline: ${String(baseline.seconds)} s`);

    const fixture = await setUp(database, 'measured');
    await insertRows(database, 'messages', messageColumns, queuedRows(fixture));
    await charge(database, fixture.accountId);
    // What autovacuum does to a table that grew like this; without statistics the planner takes 200,000
    // freshly written rows for an empty table and joins receipts to it row by row.
    await rowsOf(database, 'analyze');
    context.log('measured: dispatcher → simulator → receipts');
    const measured = await measuredFanout(m, database, fixture, context);
    context.log(`measured: ${String(measured.seconds)} s, ${String(measured.messagesPerSecond)} messages/s`);
    return {
      parameters: {
        messages: MESSAGES,
        numbers: NUMBERS,
        ratePerNumber: RATE_PER_NUMBER,
        simulatorLatencyMs: LATENCY_MS,
        targetMessagesPerSecond: TARGET_PER_SECOND,
        baselineRowsPerStatement: ROWS_PER_STATEMENT,
      },
      measured,
      baseline,
      ratios: {
        seconds: ratio(Number(measured.seconds), baseline.seconds),
        messagesPerSecond: ratio(Number(measured.messagesPerSecond), baseline.messagesPerSecond),
      },
    };
  },
};
