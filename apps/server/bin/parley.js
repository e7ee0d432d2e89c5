#!/usr/bin/env node
// The operator CLI. Runs the compiled server code; `npm run parley -- <command>` builds it first.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('The server is not built yet. Run `npm run build` first (npm run parley does it for you).\n');
  process.exit(1);
}
await import(entry.href);
