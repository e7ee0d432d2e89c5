import { parseArgs } from 'node:util';

export type DatabaseKind = 'pglite' | 'postgres';

export interface RunOptions {
  readonly name: string | undefined;
  readonly durationSeconds: number;
  readonly connections: number;
  /** Undefined when not named: the benchmark's own default (most use PGlite). */
  readonly database: DatabaseKind | undefined;
}

export class UsageError extends Error {}

export const usage =
  'Usage: npm run bench -- <name> [--duration S] [--connections N] [--database pglite|postgres]\n' +
  '  --database postgres reads the server URL from BENCH_DATABASE_URL.';

function positiveInt(label: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${label} must be a whole number of at least 1, not "${value}"`);
  return n;
}

function databaseKind(value: string | undefined): DatabaseKind | undefined {
  if (value === undefined) return undefined;
  if (value === 'pglite') return 'pglite';
  if (value === 'postgres') return 'postgres';
  throw new UsageError(`--database must be pglite or postgres, not "${value}"`);
}

export function parseRunArgs(argv: readonly string[]): RunOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        duration: { type: 'string' },
        connections: { type: 'string' },
        database: { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`one benchmark at a time, not ${positionals.join(', ')}`);
  return {
    name: positionals[0],
    durationSeconds: positiveInt('--duration', values.duration, 10),
    connections: positiveInt('--connections', values.connections, 50),
    database: databaseKind(values.database),
  };
}
