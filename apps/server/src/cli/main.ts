import { ConfigError, loadConfig } from '../platform/config.js';
import { DataDirLockedError } from '../platform/db/dataDirLock.js';
import { readVersion } from '../platform/version.js';
import { parseArgs } from './args.js';
import { CliError, commands } from './commands.js';

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

async function main(argv: readonly string[]): Promise<number> {
  const { command, flags } = parseArgs(argv);
  const json = flags.has('json');
  const fail = (code: string, message: string, exitCode: number): number => {
    if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: { code, message } })}\n`);
    else process.stderr.write(`${message}\n`);
    return exitCode;
  };
  if (command === null || command === 'help' || flags.has('help')) {
    process.stdout.write(`${usage()}\n`);
    return command === null && !flags.has('help') ? 2 : 0;
  }
  const found = commands.find((c) => c.name === command);
  if (!found) return fail('unknown_command', `Unknown command '${command}'.\n\n${usage()}`, 2);
  try {
    // The CLI logs nothing of its own; the environment is read exactly as the server reads it.
    const config = loadConfig(process.env, [], process.cwd(), readVersion());
    const result = await found.run(config, flags);
    process.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) return fail(error.code, error.message, error.exitCode);
    if (error instanceof ConfigError) return fail('invalid_configuration', error.message, 1);
    if (error instanceof DataDirLockedError) return fail('data_dir_in_use', error.message, 1);
    return fail('failed', error instanceof Error ? error.message : String(error), 1);
  }
}

process.exitCode = await main(process.argv.slice(2));
