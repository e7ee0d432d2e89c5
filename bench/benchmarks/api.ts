import path from 'node:path';
import type { BenchContext, Benchmark } from '../lib/benchmark.js';
import { applyLoad, ratio, type LoadFigures } from '../lib/load.js';
import { accessToken, benchStorage, startParley, type Storage } from '../lib/parley.js';
import { benchDist } from '../lib/paths.js';
import { watchCpu } from '../lib/cpuWatch.js';
import { startServerProcess } from '../lib/serverProcess.js';
import { KindSamples, mixClients } from './apiMix.js';
import { API_CLIENTS, FULL_SCALE, seedApiAccount, type ApiFixture, type Scale } from './apiSeed.js';

/*
 * The public API under load (DESIGN.md, "Performance targets"): 50 API clients, each with its own token on
 * its own connection, mixing list contacts, list conversations, read one and send one (apiMix.ts) against a
 * realistic account (apiSeed.ts: 100,000 contacts, 10,000 conversations, 1,000,000 messages). Parley runs as
 * deployed (on PostgreSQL a web and a worker process: the worker sends what the API queued, through the
 * simulator); the baseline is a bare Fastify server in its own process (baseline/apiSql.ts) answering the
 * same requests with the same data statements on the same database and driver, without token, membership,
 * validation or presenters. Parley first, then the baseline (on PGlite one process holds the database at a
 * time). Target: p99 under 50 ms and at least 1,000 requests a second.
 */

const TARGET_P99_MS = 50;
const TARGET_REQUESTS_PER_SECOND = 1000;
const WARMUP_SECONDS = 3;

/** BENCH_API_SCALE (0 < s <= 1) shrinks the account; PGlite defaults to a tenth (seeding a million rows there takes minutes). */
function scaleOf(context: BenchContext): { scale: Scale; factor: number } {
  const given = process.env.BENCH_API_SCALE;
  const factor = given === undefined || given === '' ? (context.database.kind === 'pglite' ? 0.1 : 1) : Number(given);
  if (!Number.isFinite(factor) || factor <= 0 || factor > 1) throw new Error(`BENCH_API_SCALE must be a number above 0 and at most 1, not "${String(given)}"`);
  const of = (n: number): number => Math.max(1, Math.round(n * factor));
  return { scale: { contacts: of(FULL_SCALE.contacts), conversations: of(FULL_SCALE.conversations), messages: of(FULL_SCALE.messages) }, factor };
}

type SideFigures = LoadFigures & {
  /** Spawn to first answer (ms): the baseline's; Parley's start includes its worker and is not timed here. */
  readonly startupMs: number | null;
  readonly byKind: ReturnType<KindSamples['summary']>;
  /** CPU time per answered request (µs) of each process, and their share of one core during the run (%). */
  readonly cpu: Record<string, { microsPerRequest: number; percentOfOneCore: number } | null>;
  readonly failureBodies: readonly string[];
};

async function measure(
  name: string,
  url: string,
  processes: Record<string, number>,
  startupMs: number | null,
  f: ApiFixture,
  tokens: readonly string[],
  storage: Storage,
  context: BenchContext,
): Promise<SideFigures> {
  context.log(`${name}: warming up for ${String(WARMUP_SECONDS)} s`);
  await applyLoad({ url, connections: context.connections, durationSeconds: WARMUP_SECONDS, setupClient: mixClients(f, tokens, new KindSamples()) }, context.scope.signal);
  context.log(`${name}: measuring for ${String(context.durationSeconds)} s at ${String(context.connections)} connections`);
  const samples = new KindSamples();
  const cpu = await watchCpu(processes, storage);
  const startedAt = performance.now();
  const figures = await applyLoad({ url, connections: context.connections, durationSeconds: context.durationSeconds, setupClient: mixClients(f, tokens, samples) }, context.scope.signal);
  const elapsedMs = performance.now() - startedAt;
  const used = await cpu.used();
  const answered = Math.max(1, figures.requestsCompleted);
  const perProcess = Object.fromEntries(
    Object.entries(used).map(([process, ms]) => [
      process,
      ms === null ? null : { microsPerRequest: Math.round((ms * 10_000) / answered) / 10, percentOfOneCore: Math.round((ms / elapsedMs) * 100) },
    ]),
  );
  const failures = figures.errors + figures.non2xx + figures.timeouts;
  if (failures > 0) context.log(`warning: ${name} had ${String(failures)} failed answers: ${samples.failureBodies.join(' | ')}`);
  return { startupMs, ...figures, byKind: samples.summary(), cpu: perProcess, failureBodies: samples.failureBodies };
}

const meetsTarget = (s: SideFigures): boolean =>
  s.latencyMs.p99 < TARGET_P99_MS && s.requestsPerSecond >= TARGET_REQUESTS_PER_SECOND && s.non2xx === 0 && s.errors === 0 && s.timeouts === 0;

/** CPU per request of every process of a side, summed (server, worker, database). */
const totalCpu = (s: SideFigures): number =>
  Object.values(s.cpu).reduce((sum, c) => sum + (c?.microsPerRequest ?? 0), 0);

export const apiBenchmark: Benchmark = {
  description: '50 API clients mixing lists, reads and sends on a realistic account (100,000 contacts, 1,000,000 messages), beside a bare Fastify server running the same SQL',
  defaultDatabase: 'postgres',
  async run(context) {
    const { scale, factor } = scaleOf(context);
    const storage = await benchStorage(context.database, 'api', context);
    context.log(`set-up on ${context.database.kind}: one account with ${String(API_CLIENTS)} API clients`);
    const f = await seedApiAccount(storage, scale, context);
    context.log(`  seeded in ${String(f.seedSeconds)} s`);

    // Per-address limits are for the open internet; here every client comes from one address. Each
    // credential keeps its own limit (API_RATE_LIMIT), well above what one connection asks.
    const parley = await startParley(storage, { API_RATE_LIMIT_PER_ADDRESS: '0' }, context);
    const tokens: string[] = [];
    for (const client of f.clients) tokens.push(await accessToken(parley.url, client));
    const [webPid, workerPid] = parley.pids;
    const processes: Record<string, number> = { web: webPid ?? 0, ...(workerPid === undefined ? {} : { worker: workerPid }) };
    const measured = await measure(`Parley (${parley.processes})`, parley.url, processes, null, f, tokens, storage, context).catch((error: unknown) => {
      const why = parley.explainExit();
      throw why === null ? error : new Error(why, { cause: error });
    });
    await parley.stop();

    const bare = await startServerProcess(
      {
        name: 'baseline (bare Fastify + SQL)',
        script: path.join(benchDist, 'baseline', 'apiSql.js'),
        env: { DATA_DIR: storage.dataDir, ...(storage.databaseUrl === null ? {} : { DATABASE_URL: storage.databaseUrl }) },
        readyPath: '/healthz',
      },
      context.scope,
    );
    const baseline = await measure('baseline', bare.url, { server: bare.pid }, bare.startupMs, f, tokens, storage, context);
    await bare.stop();

    const summary = (s: SideFigures): Record<string, unknown> => ({ ...s, meetsTarget: meetsTarget(s) });
    return {
      parameters: {
        contacts: scale.contacts,
        conversations: scale.conversations,
        messages: scale.messages,
        scale: factor,
        apiClients: API_CLIENTS,
        processes: parley.processes,
        warmupSeconds: WARMUP_SECONDS,
        targetP99Ms: TARGET_P99_MS,
        targetRequestsPerSecond: TARGET_REQUESTS_PER_SECOND,
        mix: 'per round of 10: 3 list contacts (first page, by cursor, by offset), 2 list conversations (first page, by offset), 2 read contact, 2 read conversation, 1 send',
      },
      measured: { ...summary(measured), meetsTarget: meetsTarget(measured) && factor === 1 },
      baseline: summary(baseline),
      ratios: {
        throughput: ratio(measured.requestsPerSecond, baseline.requestsPerSecond),
        p99: ratio(measured.latencyMs.p99, baseline.latencyMs.p99),
        cpuPerRequest: ratio(totalCpu(measured), totalCpu(baseline)),
      },
    };
  },
};
