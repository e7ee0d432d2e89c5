import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type autocannon from 'autocannon';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { benchCode } from '../lib/codes.js';
import { applyLoad, ratio, type LoadFigures } from '../lib/load.js';
import { benchStorage, startParley, type Storage } from '../lib/parley.js';
import { benchDist } from '../lib/paths.js';
import { databaseModules, insertRows, rowsOf } from '../lib/serverModules.js';
import { startServerProcess } from '../lib/serverProcess.js';

/*
 * `bench redirect`: 50 connections asking GET /r/{code} over 10,000 short links with contact tracking on,
 * each connection walking the codes from its own place, as a phone's browser would (a person's user agent),
 * beside a bare Fastify server answering the same 302s from a Map. Every click must be counted once: after
 * the run and the server's stop (which writes the last batch), the links' clicks add up to the 302s sent.
 */

const CODES = 10_000;
const WARMUP_SECONDS = 3;
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

function walkCodes(): (client: autocannon.Client) => void {
  let connections = 0;
  return (client) => {
    let next = (connections++ * 997) % CODES;
    client.setRequests([
      {
        setupRequest: (request) => {
          const code = benchCode(next);
          next = (next + 1) % CODES;
          return { ...request, method: 'GET', path: `/r/${code}`, headers: { ...request.headers, 'user-agent': PHONE } };
        },
      },
    ]);
  };
}

async function seed(storage: Storage): Promise<void> {
  const m = await databaseModules();
  const database = await m.openDatabase({ ...storage, poolMax: 2 });
  try {
    await m.migrateDatabase(database);
    const accountId = randomUUID();
    await insertRows(database, 'plans', ['id', 'name', 'price', 'is_trial', 'pricing'], [['bench-plan', 'Bench', '0', false, JSON.stringify({ DEFAULT: { sms: { outbound: '0.0079' } } })]]);
    await insertRows(database, 'accounts', ['id', 'name', 'plan_id', 'support', 'questionnaire'], [[accountId, 'Redirect bench', 'bench-plan', '{}', '{}']]);
    const rows = Array.from({ length: CODES }, (_, i) => [randomUUID(), accountId, `Link ${String(i)}`, `https://shop.example.test/item/${String(i)}`, benchCode(i), true]);
    await insertRows(database, 'links', ['id', 'account_id', 'name', 'destination_url', 'code', 'contact_tracking'], rows);
  } finally {
    await database.close();
  }
}

async function countedClicks(storage: Storage): Promise<{ clicks: number; botClicks: number }> {
  const m = await databaseModules();
  const database = await m.openDatabase({ ...storage, poolMax: 1 });
  try {
    const [row] = await rowsOf(database, 'select coalesce(sum(clicks), 0)::bigint as clicks, coalesce(sum(bot_clicks), 0)::bigint as bots from links');
    return { clicks: Number(row?.clicks ?? 0), botClicks: Number(row?.bots ?? 0) };
  } finally {
    await database.close();
  }
}

const redirects = (figures: LoadFigures): number => figures.statusCodes['302'] ?? 0;

async function load(url: string, context: BenchContext, name: string): Promise<{ warmup: LoadFigures; measured: LoadFigures }> {
  context.log(`${name}: warming up for ${String(WARMUP_SECONDS)} s`);
  const warmup = await applyLoad({ url, connections: context.connections, durationSeconds: WARMUP_SECONDS, setupClient: walkCodes() }, context.scope.signal);
  context.log(`${name}: measuring for ${String(context.durationSeconds)} s at ${String(context.connections)} connections`);
  const measured = await applyLoad({ url, connections: context.connections, durationSeconds: context.durationSeconds, setupClient: walkCodes() }, context.scope.signal);
  return { warmup, measured };
}

export const redirectBenchmark: Benchmark = {
  description: 'GET /r/{code} over 10,000 tracked short links at 50 connections, beside a bare Fastify redirect; clicks counted once',
  async run(context) {
    const baselineServer = await startServerProcess(
      { name: 'baseline (bare Fastify redirect)', script: path.join(benchDist, 'baseline', 'fastifyRedirect.js'), env: { BENCH_CODES: String(CODES) }, readyPath: '/healthz' },
      context.scope,
    );
    const baseline = await load(`${baselineServer.url}/r/${benchCode(0)}`, context, 'baseline');
    await baselineServer.stop();

    const storage = await benchStorage(context.database, 'redirect', context);
    context.log(`seeding ${String(CODES)} links`);
    await seed(storage);
    const parley = await startParley(storage, {}, context);
    const run = await load(`${parley.url}/r/${benchCode(0)}`, context, 'parley');
    // A stop writes the last batch of clicks, as a deployment's SIGTERM does.
    await parley.stop();
    const counted = await countedClicks(storage);
    const sent = redirects(run.warmup) + redirects(run.measured);
    // autocannon drops the answers still in flight when a run's time is up (at most one per connection a
    // run); the server counted those clicks, so counted - sent lies between 0 and that bound.
    const inFlightBound = 2 * context.connections;
    const countedOnce = counted.clicks >= sent && counted.clicks - sent <= inFlightBound;
    if (!countedOnce) context.log(`warning: ${String(sent)} redirects answered but ${String(counted.clicks)} clicks counted`);
    return {
      parameters: { codes: CODES, warmupSeconds: WARMUP_SECONDS, userAgent: 'a phone browser', contactTracking: true },
      measured: { ...run.measured, clicks: { redirectsAnswered: sent, counted: counted.clicks, inFlightBound, botClicks: counted.botClicks, countedOnce } },
      baseline: baseline.measured,
      ratios: {
        throughput: ratio(run.measured.requestsPerSecond, baseline.measured.requestsPerSecond),
        p99: ratio(run.measured.latencyMs.p99, baseline.measured.latencyMs.p99),
      },
    };
  },
};
