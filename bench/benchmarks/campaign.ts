import { randomBytes, randomUUID } from 'node:crypto';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { ratio } from '../lib/load.js';
import { accessToken, benchStorage, startParley, type RunningParley, type Storage } from '../lib/parley.js';
import { processCpuMs } from '../lib/processCpu.js';
import {
  databaseModules,
  insertRows,
  loadModule,
  rowsOf,
  serverDist,
  type BenchDatabase,
  type DatabaseModules,
} from '../lib/serverModules.js';

/*
 * A Manual campaign to 100,000 contacts, from Execute to every message delivered: the campaign is created
 * and executed through the API (an API client's token, as an integration would), then the worker does the
 * rest as deployed: the campaigns.execute job queues the messages in batches (consent, number, text,
 * price, one ledger debit a batch), the dispatcher sends them through the simulator carrier (four numbers
 * of the campaign's group at 2,500/s each, 200 ms latency, no failures) and the receipts mark them
 * delivered. PostgreSQL runs a web process and a worker process; PGlite one process. The contacts are
 * fresh (no conversation yet, so the campaign opens 100,000) and each keeps one of the group's numbers,
 * as after earlier sends, so the four share the load. Progress is read from the API (the daily counts
 * report, every 5 s: it scans the day's messages); the figures come from the rows' own times once the server has stopped, so the
 * polling does not round them. Target (DESIGN.md): all delivered in under 60 s, no duplicate, the charge
 * exact and the ledger equal to the balance.
 *
 * Baseline, in the same run and database: bare multi-row INSERTs (1,000 rows a statement) of what the
 * campaign must write at the least, 100,000 conversations and their 100,000 messages, for another account
 * with its own contacts; it times queueing only (sending is the fanout benchmark's).
 */

/** BENCH_CAMPAIGN_CONTACTS to try a smaller one; the target is for 100,000. */
const CONTACTS = Number(process.env.BENCH_CAMPAIGN_CONTACTS ?? '100000');
const NUMBERS = 4;
/** Per number; the four together may send 10,000/s, so the engine, not the rate, is what is measured. */
const RATE_PER_NUMBER = 2_500;
const LATENCY_MS = 200;
const PRICE = '0.0079';
const PRICE_UNITS = 79n;
const CREDIT = '1000.0000';
const TARGET_SECONDS = 60;
const POLL_MS = 5000;
const GIVE_UP_MS = 900_000;
const ROWS_PER_STATEMENT = 1000;
const TEMPLATE = 'Hi {{{firstName}}}, your appointment at Harbor Dental is tomorrow at 10:00. Reply STOP to opt out.';
const text = (firstName: string): string => TEMPLATE.replace('{{{firstName}}}', firstName);

interface Modules extends DatabaseModules {
  registerApiClient(db: unknown, input: { clientId: string; secret: string; accountId: string }): Promise<void>;
}

async function modules(): Promise<Modules> {
  const apiClients = await loadModule<Pick<Modules, 'registerApiClient'>>(serverDist, 'modules', 'identity', 'issuer', 'apiClients.js');
  return { ...(await databaseModules()), ...apiClients };
}

/** 4 decimals from ten-thousandths. */
const money = (units: bigint): string => {
  const digits = units.toString().padStart(5, '0');
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`;
};

interface Account {
  id: string;
  numbers: { id: string; number: string }[];
  contacts: { id: string; number: string; firstName: string }[];
}

/** An account on the bench plan with its simulator numbers and contacts (each keeping one of the numbers). */
async function account(database: BenchDatabase, label: string, numberBase: number): Promise<Account> {
  const id = randomUUID();
  const one = (table: string, columns: string[], values: unknown[]): Promise<void> => insertRows(database, table, columns, [values]);
  await one('accounts', ['id', 'name', 'plan_id', 'support', 'questionnaire', 'quiet_hours_enabled', 'balance'], [id, `Campaign ${label}`, 'bench-plan', '{}', '{}', false, CREDIT]);
  await one('account_transactions', ['id', 'account_id', 'kind', 'amount', 'balance_after', 'description'], [randomUUID(), id, 'credit', CREDIT, CREDIT, 'Bench credit']);
  const numbers = Array.from({ length: NUMBERS }, (_, i) => ({ id: randomUUID(), number: `+1202555${String(numberBase + i).padStart(4, '0')}` }));
  await insertRows(
    database,
    'phone_numbers',
    ['id', 'account_id', 'number', 'country', 'carrier', 'status', 'verified_at', 'messages_per_second'],
    numbers.map((n) => [n.id, id, n.number, 'US', 'simulator', 'active', new Date(), RATE_PER_NUMBER]),
  );
  const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
    id: randomUUID(),
    number: `+1415${String(2_000_000 + i).padStart(7, '0')}`,
    firstName: `Contact${String(i)}`,
  }));
  await insertRows(
    database,
    'contacts',
    ['id', 'account_id', 'first_name', 'mobile_number', 'mobile_country', 'sender_phone_number_id'],
    contacts.map((c, i) => [c.id, id, c.firstName, c.number, 'US', numbers[i % NUMBERS]?.id]),
    ROWS_PER_STATEMENT,
  );
  return { id, numbers, contacts };
}

interface Fixture {
  accountId: string;
  groupId: string;
  clientId: string;
  secret: string;
  baseline: { seconds: number; rows: number };
}

/**
 * Before the server starts: the plan, the simulator's settings, the campaign's account (its group of four
 * numbers, its contacts, its credit, an API client) and the baseline (another account's rows, timed).
 */
async function setUp(m: Modules, storage: Storage, context: BenchContext): Promise<Fixture> {
  const database = await m.openDatabase({ ...storage, poolMax: 2 });
  try {
    await m.migrateDatabase(database);
    await insertRows(database, 'plans', ['id', 'name', 'price', 'is_trial', 'pricing'], [['bench-plan', 'Bench', '0', false, JSON.stringify({ DEFAULT: { sms: { outbound: PRICE } } })]]);
    await insertRows(database, 'simulator_settings', ['id', 'seed', 'latency_ms', 'failure_rate', 'messages_per_second'], [[1, 1, LATENCY_MS, 0, NUMBERS * RATE_PER_NUMBER]]);

    const spare = await account(database, 'baseline', 150);
    const conversations = spare.contacts.map((c, i) => ({ id: randomUUID(), contact: c, number: spare.numbers[i % NUMBERS] }));
    const now = new Date();
    context.log(`baseline: bare multi-row INSERTs (${String(ROWS_PER_STATEMENT)} rows each) of ${String(CONTACTS)} conversations and messages`);
    const started = performance.now();
    await insertRows(
      database,
      'conversations',
      ['id', 'account_id', 'contact_id', 'phone_number_id', 'last_message_at'],
      conversations.map((c) => [c.id, spare.id, c.contact.id, c.number?.id, now]),
      ROWS_PER_STATEMENT,
    );
    // 'delivered': the rows are the baseline's writes only; the dispatcher must not send them.
    await insertRows(
      database,
      'messages',
      ['id', 'account_id', 'conversation_id', 'contact_id', 'phone_number_id', 'direction', 'from_number', 'to_number', 'body', 'encoding', 'segments', 'price', 'status'],
      conversations.map((c) => [randomUUID(), spare.id, c.id, c.contact.id, c.number?.id, 'outbound', c.number?.number, c.contact.number, text(c.contact.firstName), 'GSM-7', 1, PRICE, 'delivered']),
      ROWS_PER_STATEMENT,
    );
    const baselineMs = performance.now() - started;

    const measured = await account(database, 'measured', 100);
    const groupId = randomUUID();
    await insertRows(database, 'groups', ['id', 'account_id', 'name'], [[groupId, measured.id, 'Campaign numbers']]);
    await insertRows(database, 'group_phone_numbers', ['group_id', 'phone_number_id'], measured.numbers.map((n) => [groupId, n.id]));
    // What autovacuum does to tables that grew like this; without statistics the planner takes them for empty.
    await rowsOf(database, 'analyze');
    const clientId = `bench-${randomUUID()}`;
    const secret = randomBytes(32).toString('hex');
    await m.registerApiClient(database.db, { clientId, secret, accountId: measured.id });
    return { accountId: measured.id, groupId, clientId, secret, baseline: { seconds: baselineMs / 1000, rows: 2 * CONTACTS } };
  } finally {
    await database.close();
  }
}

interface Api {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }>;
}

function api(url: string, token: string, accountId: string): Api {
  return {
    async call(method, path, body) {
      try {
        const response = await fetch(`${url}/v1/accounts/${accountId}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: await response.text() };
      } catch (error) {
        // fetch says only 'fetch failed'; the reason (refused, reset, a timeout) is its cause.
        const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
        throw new Error(`${method} ${path} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause: error });
      }
    },
  };
}

async function createCampaign(client: Api, f: Fixture): Promise<string> {
  const created = await client.call('POST', '/campaigns', {
    name: 'Appointment reminders',
    messagingType: 'transactional',
    phoneNumberFilter: { group: f.groupId },
    trigger: { code: 'M' },
    template: TEMPLATE,
  });
  if (created.status !== 201) throw new Error(`creating the campaign answered ${String(created.status)}: ${created.body.slice(0, 300)}`);
  return (JSON.parse(created.body) as { data: { id: string } }).data.id;
}

interface Progress {
  queued: number;
  delivered: number;
  failed: number;
}

const utcDay = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The account's outbound messages so far, from the daily counts report (today and tomorrow, UTC). */
async function progress(client: Api, startedAt: number, context: BenchContext): Promise<Progress> {
  const path = `/reports/dailycounts?from=${utcDay(startedAt)}&to=${utcDay(startedAt + 86_400_000)}`;
  let answer;
  for (let attempt = 1; ; attempt += 1) {
    try {
      answer = await client.call('GET', path);
      break;
    } catch (error) {
      // A server that kept its event loop busy past the keep-alive timeout closes the idle connection as the
      // next poll goes out on it; the poll is not what is measured, so it is asked again (and logged).
      if (attempt >= 3 || context.scope.signal.aborted) throw error;
      context.log(`  the progress poll failed (${error instanceof Error ? error.message : String(error)}); asking again`);
    }
  }
  if (answer.status !== 200) throw new Error(`the daily counts answered ${String(answer.status)}: ${answer.body.slice(0, 300)}`);
  const total: Progress = { queued: 0, delivered: 0, failed: 0 };
  // date, outbound messages, outbound segments, delivered, failed, ...: no cell of these holds a comma.
  for (const line of answer.body.trim().split('\n').slice(1)) {
    const cells = line.split(',');
    total.queued += Number(cells[1]);
    total.delivered += Number(cells[3]);
    total.failed += Number(cells[4]);
  }
  return total;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time (s) each process used, web first. */
async function cpuSeconds(parley: RunningParley): Promise<(number | null)[]> {
  return Promise.all(parley.pids.map(async (pid) => {
    const ms = await processCpuMs(pid);
    return ms === null ? null : ms / 1000;
  }));
}

interface Run {
  campaignId: string;
  startedAt: number;
  executeMs: number;
  executionId: string;
  recipients: number;
  cpuSeconds: (number | null)[];
  processes: string;
  /** The progress polls' answer times: what watching cost the server. */
  pollMs: { count: number; mean: number; max: number };
}

/** Execute, then wait until every message is delivered (or failed) as the API reports it. */
async function execute(parley: RunningParley, f: Fixture, context: BenchContext): Promise<Run> {
  const client = api(parley.url, await accessToken(parley.url, f), f.accountId);
  const campaignId = await createCampaign(client, f);
  const cpuBefore = await cpuSeconds(parley);
  context.log(`measured: Execute, then the worker queues, sends and delivers ${String(CONTACTS)} messages`);
  const startedAt = Date.now();
  const executed = await client.call('POST', `/campaigns/${campaignId}/execute`);
  const executeMs = Date.now() - startedAt;
  if (executed.status !== 202) throw new Error(`Execute answered ${String(executed.status)}: ${executed.body.slice(0, 300)}`);
  const execution = (JSON.parse(executed.body) as { data: { id: string; recipients: number } }).data;
  context.log(`  Execute answered in ${String(executeMs)} ms: ${String(execution.recipients)} recipients`);
  if (execution.recipients !== CONTACTS) throw new Error(`the execution has ${String(execution.recipients)} recipients, not ${String(CONTACTS)}`);

  let lastLog = Date.now();
  const polls: number[] = [];
  for (;;) {
    context.scope.signal.throwIfAborted();
    await sleep(POLL_MS);
    const asked = performance.now();
    const now = await progress(client, startedAt, context);
    polls.push(performance.now() - asked);
    if (now.delivered + now.failed >= CONTACTS) break;
    if (Date.now() - startedAt > GIVE_UP_MS) throw new Error(`gave up after ${String(GIVE_UP_MS / 1000)} s: ${JSON.stringify(now)}`);
    if (Date.now() - lastLog >= 5000) {
      lastLog = Date.now();
      context.log(`  ${String(Math.round((Date.now() - startedAt) / 100) / 10)} s: ${String(now.queued)} queued, ${String(now.delivered)} delivered, ${String(now.failed)} failed`);
    }
  }
  const cpuAfter = await cpuSeconds(parley);
  const used = cpuAfter.map((after, i) => {
    const before = cpuBefore[i];
    return after === null || before === null || before === undefined ? null : Math.round((after - before) * 10) / 10;
  });
  const pollMs = { count: polls.length, mean: Math.round(polls.reduce((a, b) => a + b, 0) / Math.max(1, polls.length)), max: Math.round(Math.max(0, ...polls)) };
  return { campaignId, startedAt, executeMs, executionId: execution.id, recipients: execution.recipients, cpuSeconds: used, processes: parley.processes, pollMs };
}

/** The figures, from the rows once the server has stopped (PGlite takes one process at a time). */
async function figures(m: Modules, storage: Storage, f: Fixture, run: Run): Promise<Record<string, unknown>> {
  const database = await m.openDatabase({ ...storage, poolMax: 2 });
  try {
    const since = (column: string): string => `round(extract(epoch from ${column}) * 1000 - ${String(run.startedAt)})::float8`;
    const [job] = await rowsOf(
      database,
      `select status, recipients, submitted, failures, price::text as price, ${since('finished_at')} as finished_ms
         from campaign_jobs where id = $1`,
      [run.executionId],
    );
    const [messages] = await rowsOf(
      database,
      `select count(*)::int as total, count(distinct contact_id)::int as contacts,
              count(*) filter (where status = 'delivered')::int as delivered,
              ${since('min(created_at)')} as first_queued_ms,
              ${since('min(sent_at)')} as first_sent_ms, ${since('max(sent_at)')} as last_sent_ms,
              coalesce(sum(price), 0)::text as price
         from messages where job_id = $1`,
      [run.executionId],
    );
    // When Parley recorded each delivery: the messageStatus events its receipts wrote (status_at is the
    // carrier's time). A row names a batch's messages, each with its status at the event.
    const [deliveries] = await rowsOf(
      database,
      `select count(*)::int as n, ${since('max(e.created_at)')} as last_ms
         from events e cross join lateral jsonb_array_elements(e.data->'messages') as m(item)
        where e.account_id = $1 and e.type = 'messageStatus' and m.item->>1 = 'delivered'`,
      [f.accountId],
    );
    const [handsets] = await rowsOf(
      database,
      `select count(*)::int as handset_rows, count(distinct s.ref)::int as handset_refs
         from simulator_messages s join messages m on m.id::text = s.ref where m.job_id = $1`,
      [run.executionId],
    );
    const [books] = await rowsOf(
      database,
      `select (select balance::text from accounts where id = $1) as balance,
              (select coalesce(sum(case when kind = 'debit' then -amount else amount end), 0)::text
                 from account_transactions where account_id = $1) as ledger,
              (select coalesce(sum(amount), 0)::text from account_transactions
                where account_id = $1 and kind = 'debit' and idempotency_key like 'campaign-job:' || $2 || ':%') as debited`,
      [f.accountId, run.executionId],
    );
    const n = (row: Record<string, unknown> | undefined, key: string): number => Number(row?.[key]);
    const seconds = (ms: number): number => Math.round(ms) / 1000;
    const expected = money(PRICE_UNITS * BigInt(CONTACTS));
    const creditUnits = BigInt(CREDIT.replace('.', ''));
    const delivered = n(messages, 'delivered');
    const deliveredSeconds = seconds(n(deliveries, 'last_ms'));
    const queuedSeconds = seconds(n(job, 'finished_ms'));
    const duplicates = n(handsets, 'handset_rows') - n(handsets, 'handset_refs') + (n(messages, 'total') - n(messages, 'contacts'));
    const balance = String(books?.balance);
    const charge = {
      expected,
      debited: String(books?.debited),
      execution: String(job?.price),
      messages: String(messages?.price),
      balance,
      ledger: String(books?.ledger),
    };
    const chargeExact =
      [charge.debited, charge.execution, charge.messages].every((v) => Number(v) === Number(expected)) &&
      Number(balance) === Number(money(creditUnits - PRICE_UNITS * BigInt(CONTACTS))) &&
      Number(charge.ledger) === Number(balance);
    const queueing = n(job, 'finished_ms') - n(messages, 'first_queued_ms');
    return {
      contacts: CONTACTS,
      executeMs: run.executeMs,
      execution: { status: String(job?.status), recipients: n(job, 'recipients'), submitted: n(job, 'submitted'), failures: n(job, 'failures') },
      firstQueuedSeconds: seconds(n(messages, 'first_queued_ms')),
      allQueuedSeconds: queuedSeconds,
      firstSentSeconds: seconds(n(messages, 'first_sent_ms')),
      allSentSeconds: seconds(n(messages, 'last_sent_ms')),
      allDeliveredSeconds: deliveredSeconds,
      /** Recipients queued a second, from the first batch to the execution's end. */
      queueingPerSecond: Math.round((CONTACTS / queueing) * 1000),
      /** Messages delivered a second, from Execute to the last delivered. */
      messagesPerSecond: Math.round(delivered / deliveredSeconds),
      messages: n(messages, 'total'),
      delivered,
      notDelivered: n(messages, 'total') - delivered,
      handsetRows: n(handsets, 'handset_rows'),
      duplicates,
      charge,
      chargeExact,
      serverCpuSeconds: run.cpuSeconds,
      progressPollMs: run.pollMs,
      meetsTarget: CONTACTS >= 100_000 && delivered === CONTACTS && deliveredSeconds < TARGET_SECONDS && duplicates === 0 && chargeExact,
    };
  } finally {
    await database.close();
  }
}

export const campaignBenchmark: Benchmark = {
  description: `A Manual campaign to ${CONTACTS.toLocaleString('en')} contacts through the API, from Execute to all delivered through the simulator, beside bare INSERTs of the same conversations and messages`,
  async run(context) {
    const m = await modules();
    const storage = await benchStorage(context.database, 'campaign', context);
    context.log(`set-up on ${context.database.kind}: two accounts of ${String(CONTACTS)} contacts and ${String(NUMBERS)} simulator numbers each`);
    const f = await setUp(m, storage, context);
    const baseline = {
      rows: f.baseline.rows,
      seconds: Math.round(f.baseline.seconds * 1000) / 1000,
      messagesPerSecond: Math.round(CONTACTS / f.baseline.seconds),
    };
    context.log(`baseline: ${String(baseline.seconds)} s`);

    const parley = await startParley(storage, {}, context);
    const run = await execute(parley, f, context).catch((error: unknown) => {
      const why = parley.explainExit();
      throw why === null ? error : new Error(why, { cause: error });
    });
    await parley.stop();
    const measured = await figures(m, storage, f, run);
    context.log(`measured: Execute ${String(measured.executeMs)} ms, all queued ${String(measured.allQueuedSeconds)} s, all sent ${String(measured.allSentSeconds)} s, all delivered ${String(measured.allDeliveredSeconds)} s`);
    return {
      parameters: {
        contacts: CONTACTS,
        processes: run.processes,
        numbers: NUMBERS,
        ratePerNumber: RATE_PER_NUMBER,
        simulatorLatencyMs: LATENCY_MS,
        price: PRICE,
        targetSeconds: TARGET_SECONDS,
        pollMs: POLL_MS,
        baselineRowsPerStatement: ROWS_PER_STATEMENT,
      },
      measured,
      baseline,
      ratios: {
        queuedSeconds: ratio(Number(measured.allQueuedSeconds), baseline.seconds),
        queueingPerSecond: ratio(Number(measured.queueingPerSecond), baseline.messagesPerSecond),
      },
    };
  },
};
