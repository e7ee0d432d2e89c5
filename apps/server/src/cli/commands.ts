import { z } from 'zod';
import { ConfigError, loadConfig, type Config } from '../platform/config.js';
import { DataDirLockedError } from '../platform/db/dataDirLock.js';
import { createAccountCommand, createUserCommand } from './accountCommands.js';
import { addNumberCommand } from './phoneNumberCommands.js';
import { seedDemoCommand } from './demoCommands.js';
import { operatorCommand } from './operatorCommands.js';
import { CliError, type CliCommand, type DatabaseLender } from './command.js';
import { databasePerCommand, heldDatabase, refusalsAsCliErrors } from './options.js';
import { renewCredentials, requestCredentials } from '../modules/accounts/index.js';
import { readVersion } from '../platform/version.js';
import { parseArgs } from './args.js';

export { CliError, type CliCommand, type CommandResult } from './command.js';

const migrate: CliCommand = {
  name: 'migrate',
  summary: 'Apply the database migrations and write the plan catalog (the server also does both at start)',
  usage: 'migrate',
  async run(config, _flags, _positionals, databases) {
    const kind = await databases.withDatabase((database) => Promise.resolve(database.kind));
    const where = kind === 'pglite' ? config.dataDir : 'PostgreSQL (DATABASE_URL)';
    return {
      json: { ok: true, database: kind },
      text: `Migrations applied to ${where}.`,
    };
  },
};

const accountFlag = z.uuid();

const issueCredentials: CliCommand = {
  name: 'issue-credentials',
  summary: "Issue an account's API credentials (--renew gives them a new secret); the secret is shown once",
  usage: 'issue-credentials --account ID [--renew]',
  async run(_config, flags, _positionals, databases) {
    const account = accountFlag.safeParse(flags.get('account'));
    if (!account.success) throw new CliError('invalid_arguments', 'Give the account id: --account <uuid>.', 2);
    const issued = await databases.withDatabase(async (database) => {
      const issue = flags.has('renew') ? renewCredentials : requestCredentials;
      return refusalsAsCliErrors(() => issue(database.db, account.data));
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
  },
};

export const commands: readonly CliCommand[] = [
  migrate,
  createUserCommand,
  createAccountCommand,
  issueCredentials,
  addNumberCommand,
  seedDemoCommand,
  operatorCommand,
];

function usage(): string {
  const width = Math.max(...commands.map((c) => c.usage.length));
  return [
    'Usage: parley <command> [options] [--json]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'It reads the same environment as the server (DATABASE_URL, DATA_DIR, ...; see docs/configuration.md).',
    'On the embedded database it needs the data directory to itself: stop the server first.',
  ].join('\n');
}

/** Where a command line answers: stdout carries the result (JSON with --json), stderr the prose of a refusal. */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/**
 * Runs one command line (`parley <command> [options]`) with the given environment, as the CLI's process
 * does (cli/main.ts), and answers its exit code: 0 done, 1 refused or failed, 2 a usage error.
 */
export async function runCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  out: CliOutput,
): Promise<number> {
  return runWith(argv, env, cwd, out, databasePerCommand);
}

/**
 * Runs command lines one after the other with the same environment, as separate `parley` processes would, but on
 * one database opened once; the first that does not answer 0 stops the rest and its code is
 * the answer.
 */
export async function runCommandLines(
  lines: readonly (readonly string[])[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  out: CliOutput,
): Promise<number> {
  const held = heldDatabase();
  try {
    for (const argv of lines) {
      const code = await runWith(argv, env, cwd, out, held.lenderFor);
      if (code !== 0) return code;
    }
    return 0;
  } finally {
    await held.close();
  }
}

async function runWith(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  out: CliOutput,
  lenderFor: (config: Config) => DatabaseLender,
): Promise<number> {
  const { command, flags, positionals } = parseArgs(argv);
  const json = flags.has('json');
  const fail = (code: string, message: string, exitCode: number): number => {
    if (json) out.stdout(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
    else out.stderr(`${message}\n`);
    return exitCode;
  };
  if (command === null || command === 'help' || flags.has('help')) {
    out.stdout(`${usage()}\n`);
    return command === null && !flags.has('help') ? 2 : 0;
  }
  const found = commands.find((c) => c.name === command);
  if (!found) return fail('unknown_command', `Unknown command '${command}'.\n\n${usage()}`, 2);
  try {
    // The CLI logs nothing of its own; the environment is read exactly as the server reads it.
    const config = loadConfig(env, [], cwd, readVersion());
    const result = await found.run(config, flags, positionals, lenderFor(config));
    out.stdout(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) return fail(error.code, error.message, error.exitCode);
    if (error instanceof ConfigError) return fail('invalid_configuration', error.message, 1);
    if (error instanceof DataDirLockedError) return fail('data_dir_in_use', error.message, 1);
    return fail('failed', error instanceof Error ? error.message : String(error), 1);
  }
}
