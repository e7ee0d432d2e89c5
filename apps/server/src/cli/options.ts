import pino, { type Logger } from 'pino';
import { seedPlans } from '../modules/billing/index.js';
import type { Config } from '../platform/config.js';
import { openDatabase, type Database } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { AppError } from '../platform/errors.js';
import { CliError, type DatabaseLender } from './command.js';

/* What the commands share: reading their flags, opening the database, answering the product's refusals. */

export type Flags = ReadonlyMap<string, string | true>;

export function textFlag(flags: Flags, name: string): string | undefined {
  const value = flags.get(name);
  if (value === true) throw new CliError('missing_value', `--${name} needs a value.`, 2);
  return value;
}

export function requiredFlag(flags: Flags, name: string): string {
  const value = textFlag(flags, name);
  if (value === undefined || value.trim() === '') throw new CliError('missing_option', `--${name} is required.`, 2);
  return value;
}

async function openPrepared(config: Config): Promise<Database> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrateDatabase(database);
    await seedPlans(database.db);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** One command line: the database is opened for the command and closed after it. */
export const databasePerCommand = (config: Config): DatabaseLender => ({
  async withDatabase(run) {
    const database = await openPrepared(config);
    try {
      return await run(database);
    } finally {
      await database.close();
    }
  },
});

/**
 * Command lines run one after the other in one process with the same environment: the database is opened
 * (and migrated) at the first command that needs it and kept for the rest, then closed once. Opening the
 * embedded database is most of a short command's time (docs/testing.md).
 */
export function heldDatabase(): { lenderFor: (config: Config) => DatabaseLender; close: () => Promise<void> } {
  let opened: Promise<Database> | null = null;
  return {
    lenderFor: (config) => ({
      async withDatabase(run) {
        opened ??= openPrepared(config);
        return run(await opened);
      },
    }),
    async close() {
      if (opened === null) return;
      const database = await opened.catch(() => null);
      opened = null;
      await database?.close();
    },
  };
}

/** Warnings go to stderr; stdout carries the answer. */
export const stderrLogger = (): Logger => pino({ level: 'warn' }, pino.destination(2));

/** A refusal of the product's commands (404, 409 ...) answers as the CLI's error, with the same code and message. */
export async function refusalsAsCliErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw new CliError(error.code, error.message);
    throw error;
  }
}
