import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject, onTestFinished } from 'vitest';
import { runCommandLine } from '../cli/commands.js';
import { openPglite, openPostgres, type Database } from '../platform/db/client.js';
import { createScratchPostgres, type TestDatabaseKind } from './databases.js';
import { runCli, type CliResult } from './processes.js';

/*
 * What the operator CLI's tests share: the database a command line finds, two ways to run a command
 * line, and reading its answer.
 *
 * A command line runs either as the built CLI's own process (runCli, test/processes.ts: the exit code
 * and stdout of a real process) or in the test's process (runCommand: the same runCommandLine that the
 * process runs, cli/commands.ts, with the same environment and no process start). Each command family's
 * tests run at least one command line as a process; the others run in the test's process.
 */

export type CliRunner = (args: readonly string[], env: Record<string, string>) => Promise<CliResult>;

/** Runs a command line in the test's process, as the CLI's process would, and answers its exit code and output. */
export const runCommand: CliRunner = async (args, env) => {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine(args, env, process.cwd(), {
    stdout(text) {
      stdout += text;
    },
    stderr(text) {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
};

export { runCli };

export interface CliStorage {
  /** What names the database to the CLI and then the server: DATA_DIR, or DATABASE_URL (with `env`'s extra variables). */
  env: Record<string, string>;
  /** The same database, opened by the test (on PGlite, close it before the next command line or server). */
  open: () => Promise<Database>;
  /** Removes the data directory, or drops the scratch database. */
  remove: () => Promise<void>;
}

/**
 * Where the CLI and then the server find the database. PGlite: a data directory of its own holding a
 * copy of the migrated, empty template that the server project's global setup makes, as a build's
 * template starts every new data directory (db/pgliteTemplate.ts). PostgreSQL: a scratch database of
 * its own, which the first command line migrates. `env` adds variables for that kind only.
 */
export async function cliStorage(
  kind: TestDatabaseKind,
  options: { prefix?: string; env?: Partial<Record<TestDatabaseKind, Record<string, string>>> } = {},
): Promise<CliStorage> {
  const extra = options.env?.[kind] ?? {};
  if (kind === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? 'parley-cli-'));
    fs.cpSync(path.join(inject('pgliteDataTemplate'), 'pgdata'), path.join(dataDir, 'pgdata'), { recursive: true });
    return {
      env: { DATA_DIR: dataDir, ...extra },
      open: () => openPglite(dataDir),
      remove: () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const scratch = await createScratchPostgres();
  return {
    env: { DATABASE_URL: scratch.url, ...extra },
    open: () => Promise.resolve(openPostgres(scratch.url, 2)),
    remove: scratch.drop,
  };
}

/** Undoes something once the test is over, whatever its outcome; the last one given goes first (a server before its storage). */
export function afterTest(cleanup: () => Promise<unknown> | undefined): void {
  onTestFinished(async () => {
    await cleanup();
  });
}

/** Runs a command line with --json that must succeed (exit code 0), and answers its JSON. */
export async function ok<T>(args: readonly string[], env: Record<string, string>, run: CliRunner = runCommand): Promise<T> {
  const result = await run([...args, '--json'], env);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** A refused command line's exit code and the error of its JSON (--json). */
export const refusal = (result: CliResult): { code: number | null; error: { code: string; message: string } } => ({
  code: result.code,
  error: (JSON.parse(result.stdout) as { error: { code: string; message: string } }).error,
});

/** Polls `probe` until it answers something other than null (a wait for an event, not a time limit on it). */
export async function until<T>(probe: () => Promise<T | null> | T | null, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
