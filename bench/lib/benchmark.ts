import type { Scope } from './scope.js';

export type DatabaseTarget = { kind: 'pglite' } | { kind: 'postgres'; url: string };

export interface BenchContext {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly database: DatabaseTarget;
  /** Everything started here is stopped and removed when the run ends, fails or is interrupted. */
  readonly scope: Scope;
  /** Progress for the person watching; stdout is kept for the result. */
  log(message: string): void;
}

export interface BenchOutcome {
  /** Settings of this benchmark beyond the runner's own (connections, duration, database). */
  readonly parameters: Readonly<Record<string, string | number | boolean>>;
  readonly measured: object;
  /** The same figures for the reference implementation, or null where there is none. */
  readonly baseline: object | null;
  /** measured / baseline per figure; null where the baseline figure is zero. */
  readonly ratios: Readonly<Record<string, number | null>>;
}

export interface Benchmark {
  readonly description: string;
  /** The database a run uses when --database names none; PGlite unless said. */
  readonly defaultDatabase?: 'pglite' | 'postgres';
  run(context: BenchContext): Promise<BenchOutcome>;
}
