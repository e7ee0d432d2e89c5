import pino, { type Logger } from 'pino';
import { seedPlans } from '../modules/billing/index.js';
import type { Config } from '../platform/config.js';
import { openDatabase, type Database } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { AppError } from '../platform/errors.js';
import { CliError } from './command.js';

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

/** The same database the server would open, migrated and with the plan catalog, for one command. */
export async function withDatabase<T>(config: Config, run: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrateDatabase(database);
    await seedPlans(database.db);
    return await run(database);
  } finally {
    await database.close();
  }
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
