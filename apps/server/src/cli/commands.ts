import type { Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrateDatabase } from '../db/migrate.js';

export interface CommandResult {
  /** Printed as JSON with --json. */
  json: Record<string, unknown>;
  /** Printed otherwise. */
  text: string;
}

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(config: Config, flags: ReadonlyMap<string, string | true>): Promise<CommandResult>;
}

const migrate: CliCommand = {
  name: 'migrate',
  summary: 'Apply the database migrations (the server also applies them at start)',
  usage: 'migrate',
  async run(config) {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolMax: 2,
    });
    try {
      await migrateDatabase(database);
    } finally {
      await database.close();
    }
    const where = database.kind === 'pglite' ? config.dataDir : 'PostgreSQL (DATABASE_URL)';
    return {
      json: { ok: true, database: database.kind },
      text: `Migrations applied to ${where}.`,
    };
  },
};

/** Commands whose capability has not been built yet say so plainly instead of pretending. */
function arrivesLater(name: string, usage: string, summary: string, capability: string): CliCommand {
  return {
    name,
    usage,
    summary,
    run() {
      return Promise.reject(
        new CliError('not_available', `${name} is not available yet: it arrives with ${capability}.`, 2),
      );
    },
  };
}

export const commands: readonly CliCommand[] = [
  migrate,
  arrivesLater('create-user', 'create-user --email E --password P', 'Create a user', 'identity and accounts'),
  arrivesLater('create-account', 'create-account --owner E --name N', 'Create an account', 'identity and accounts'),
  arrivesLater(
    'issue-credentials',
    'issue-credentials --account ID',
    'Issue API credentials for an account',
    'identity and accounts',
  ),
  arrivesLater('seed-demo', 'seed-demo', 'Fill a demo account with sample data', 'contacts and messaging'),
];
