export interface ParsedArgs {
  command: string | null;
  flags: Map<string, string | true>;
  positionals: string[];
}

/** `cmd --json --email a@b --name=X pos` → command, flags, positionals. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  let command: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        flags.set(arg.slice(2, eq), arg.slice(eq + 1));
        continue;
      }
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--') && arg !== '--json' && arg !== '--help') {
        flags.set(arg.slice(2), next);
        i++;
      } else {
        flags.set(arg.slice(2), true);
      }
    } else if (command === null) {
      command = arg;
    } else {
      positionals.push(arg);
    }
  }
  return { command, flags, positionals };
}
