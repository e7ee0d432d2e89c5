import { z } from 'zod';
import { openDatabase } from '../platform/db/client.js';
import { migrateDatabase } from '../platform/db/migrate.js';
import { createAccountCommand, createUserCommand } from './accountCommands.js';
import { addNumberCommand } from './phoneNumberCommands.js';
import { seedDemoCommand } from './demoCommands.js';
import { CliError, type CliCommand } from './command.js';
import { renewCredentials, requestCredentials } from '../modules/accounts/index.js';
import { AppError } from '../platform/errors.js';

export { CliError, type CliCommand, type CommandResult } from './command.js';

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

const accountFlag = z.uuid();

const issueCredentials: CliCommand = {
  name: 'issue-credentials',
  summary: "Issue an account's API credentials (--renew gives them a new secret); the secret is shown once",
  usage: 'issue-credentials --account ID [--renew]',
  async run(config, flags) {
    const account = accountFlag.safeParse(flags.get('account'));
    if (!account.success) throw new CliError('invalid_arguments', 'Give the account id: --account <uuid>.', 2);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
    try {
      await migrateDatabase(database);
      const issue = flags.has('renew') ? renewCredentials : requestCredentials;
      const issued = await issue(database.db, account.data).catch((error: unknown) => {
        if (error instanceof AppError) throw new CliError(error.code, error.message);
        throw error;
      });
      return {
        json: { ok: true, ...issued },
        text: [
          `Account:   ${issued.accountId}`,
          `Client id: ${issued.clientId}`,
          `Secret:    ${issued.secret}`,
          'The secret is shown only now; keep it somewhere safe.',
        ].join('\n'),
      };
    } finally {
      await database.close();
    }
  },
};

export const commands: readonly CliCommand[] = [
  migrate,
  createUserCommand,
  createAccountCommand,
  issueCredentials,
  addNumberCommand,
  seedDemoCommand,
];
