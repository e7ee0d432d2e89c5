import { runCommandLine } from './commands.js';

process.exitCode = await runCommandLine(process.argv.slice(2), process.env, process.cwd(), {
  stdout(text) {
    process.stdout.write(text);
  },
  stderr(text) {
    process.stderr.write(text);
  },
});
