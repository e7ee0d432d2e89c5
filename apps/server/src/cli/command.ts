import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/client.js';

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

/** How a command reaches the database: the same one the server would open, migrated and with the plan catalog. */
export interface DatabaseLender {
  withDatabase<T>(run: (database: Database) => Promise<T>): Promise<T>;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /**
   * `positionals`: the words after the command's name (`operator add <email>`); `databases`: how the command
   * reaches the database (opened for it alone, or held across several command lines).
   */
  run(config: Config, flags: ReadonlyMap<string, string | true>, positionals: readonly string[], databases: DatabaseLender): Promise<CommandResult>;
}
