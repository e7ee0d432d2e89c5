import type { Config } from '../platform/config.js';

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
  /** `positionals`: the words after the command's name (`operator add <email>`). */
  run(config: Config, flags: ReadonlyMap<string, string | true>, positionals: readonly string[]): Promise<CommandResult>;
}
