import path from 'node:path';
import { parseRunArgs, usage, UsageError, type RunOptions } from './lib/args.js';
import type { Benchmark, DatabaseTarget } from './lib/benchmark.js';
import { describeMachine } from './lib/machine.js';
import { repoRoot } from './lib/paths.js';
import { writeResult } from './lib/results.js';
import { Scope } from './lib/scope.js';
import { benchmarks } from './registry.js';

const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function listBenchmarks(): void {
  const lines = Object.entries(benchmarks).map(([name, b]) => `  ${name.padEnd(16)} ${b.description}`);
  process.stderr.write(`${usage}\nBenchmarks:\n${lines.join('\n')}\n`);
}

function databaseTarget(options: RunOptions, benchmark: Benchmark | undefined): DatabaseTarget {
  const kind = options.database ?? benchmark?.defaultDatabase ?? 'pglite';
  if (kind === 'pglite') return { kind: 'pglite' };
  const url = process.env.BENCH_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new UsageError(
      options.database === undefined
        ? `${options.name ?? 'this benchmark'} runs on PostgreSQL unless --database pglite: set BENCH_DATABASE_URL`
        : '--database postgres needs BENCH_DATABASE_URL',
    );
  }
  return { kind: 'postgres', url };
}

const state = { interrupted: false };

async function main(): Promise<number> {
  let options: RunOptions;
  let database: DatabaseTarget;
  let benchmark: Benchmark | undefined;
  try {
    options = parseRunArgs(process.argv.slice(2));
    benchmark = options.name === undefined ? undefined : benchmarks[options.name];
    database = databaseTarget(options, benchmark);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n`);
    listBenchmarks();
    return EXIT_USAGE;
  }
  const name = options.name;
  if (name === undefined || benchmark === undefined) {
    if (name !== undefined) process.stderr.write(`Unknown benchmark "${name}".\n`);
    listBenchmarks();
    return EXIT_USAGE;
  }

  const scope = new Scope((error) => {
    log(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
  });
  // The first signal stops the servers and lets the run unwind; a second one gives up waiting.
  const interrupt = (signal: NodeJS.Signals): void => {
    if (state.interrupted) process.exit(EXIT_INTERRUPTED);
    state.interrupted = true;
    log(`${signal}: stopping servers and removing temporary files`);
    void scope.close();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  const date = new Date().toISOString();
  const machine = describeMachine();
  let outcome;
  try {
    outcome = await benchmark.run({
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      database,
      scope,
      log,
    });
  } finally {
    await scope.close();
  }
  if (state.interrupted) return EXIT_INTERRUPTED;

  const result = {
    name,
    description: benchmark.description,
    date,
    machine,
    database: database.kind,
    parameters: { connections: options.connections, durationSeconds: options.durationSeconds, ...outcome.parameters },
    measured: outcome.measured,
    baseline: outcome.baseline,
    ratios: outcome.ratios,
  };
  const file = await writeResult(`${name}-${database.kind}.json`, result);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  log(`written to ${path.relative(repoRoot, file)}`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (state.interrupted) {
    // Stopping the servers under a running benchmark makes it fail on the way out; that is expected.
    process.exitCode = EXIT_INTERRUPTED;
  } else {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
