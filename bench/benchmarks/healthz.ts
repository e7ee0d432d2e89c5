import path from 'node:path';
import type { BenchContext, Benchmark, DatabaseTarget } from '../lib/benchmark.js';
import { applyLoad, ratio, type LoadFigures } from '../lib/load.js';
import { benchDist, serverEntry } from '../lib/paths.js';
import { processCpuMs } from '../lib/processCpu.js';
import { startServerProcess, type ServerProcessOptions } from '../lib/serverProcess.js';
import { tempDir } from '../lib/tempDir.js';

const ROUTE = '/healthz';
const EXPECTED_BODY = JSON.stringify({ status: 'ok' });
const WARMUP_SECONDS = 3;

interface ServerCpu {
  readonly microsPerRequest: number;
  readonly percentOfOneCore: number;
}

type ServerFigures = LoadFigures & {
  readonly startupMs: number;
  /**
   * The server's own CPU time during the measured run. On a shared two-core machine requests/s moves with
   * whatever else runs; CPU per request moves much less. Null where /proc is missing.
   */
  readonly serverCpu: ServerCpu | null;
};

function serverCpu(before: number | null, after: number | null, elapsedMs: number, requests: number): ServerCpu | null {
  if (before === null || after === null || requests === 0) return null;
  const usedMs = after - before;
  return {
    microsPerRequest: Math.round((usedMs * 1000 * 10) / requests) / 10,
    percentOfOneCore: Math.round((usedMs / elapsedMs) * 100),
  };
}

async function measureServer(options: ServerProcessOptions, context: BenchContext): Promise<ServerFigures> {
  context.log(`starting ${options.name}`);
  const server = await startServerProcess(options, context.scope);
  const url = server.url + ROUTE;
  // JIT and connection setup settle here so they do not count against either side.
  context.log(`${options.name} answered after ${server.startupMs} ms; warming up for ${WARMUP_SECONDS} s`);
  await applyLoad({ url, connections: context.connections, durationSeconds: WARMUP_SECONDS }, context.scope.signal);
  context.log(`measuring ${options.name} for ${context.durationSeconds} s at ${context.connections} connections`);
  const cpuBefore = await processCpuMs(server.pid);
  const startedAt = performance.now();
  const figures = await applyLoad(
    { url, connections: context.connections, durationSeconds: context.durationSeconds, expectBody: EXPECTED_BODY },
    context.scope.signal,
  );
  const elapsedMs = performance.now() - startedAt;
  const cpuAfter = await processCpuMs(server.pid);
  await server.stop();
  const failures = figures.errors + figures.non2xx + figures.mismatches;
  if (failures > 0) context.log(`warning: ${options.name} had ${failures} failed or unexpected answers`);
  return {
    startupMs: server.startupMs,
    ...figures,
    serverCpu: serverCpu(cpuBefore, cpuAfter, elapsedMs, figures.requestsCompleted),
  };
}

function parleyEnv(dataDir: string, database: DatabaseTarget): Record<string, string> {
  const env: Record<string, string> = { LOG_LEVEL: 'warn', SERVICES: 'web', DATA_DIR: dataDir };
  switch (database.kind) {
    case 'pglite':
      return env;
    case 'postgres':
      return { ...env, DATABASE_URL: database.url };
  }
}

export const healthz: Benchmark = {
  description: 'GET /healthz on the built server (web service only) beside a bare Fastify hello-world',
  async run(context) {
    const baseline = await measureServer(
      {
        name: 'baseline (bare Fastify)',
        script: path.join(benchDist, 'baseline', 'fastifyHello.js'),
        env: {},
        readyPath: ROUTE,
      },
      context,
    );
    // A fresh data dir: PGlite allows one process per directory, and nothing is left behind.
    const dataDir = await tempDir('parley-bench-', context.scope);
    const measured = await measureServer(
      {
        name: `Parley (${context.database.kind})`,
        script: serverEntry,
        env: parleyEnv(dataDir, context.database),
        readyPath: ROUTE,
      },
      context,
    );
    const cpuRatio =
      measured.serverCpu && baseline.serverCpu
        ? ratio(measured.serverCpu.microsPerRequest, baseline.serverCpu.microsPerRequest)
        : null;
    return {
      parameters: { route: ROUTE, warmupSeconds: WARMUP_SECONDS, pipelining: 1, services: 'web' },
      measured,
      baseline,
      ratios: {
        throughput: ratio(measured.requestsPerSecond, baseline.requestsPerSecond),
        p99: ratio(measured.latencyMs.p99, baseline.latencyMs.p99),
        cpuPerRequest: cpuRatio,
      },
    };
  },
};
