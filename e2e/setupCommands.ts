import { runCommandLine } from '../apps/server/dist/cli/commands.js';

/*
 * Runs the global setup's CLI command lines (a JSON array of argument lists on stdin) one after the other in
 * this one process, through the built CLI's own runner (apps/server/src/cli/commands.ts): one process start
 * and one load of the server's code for all of them. The first that fails stops the rest.
 */

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const commandLines = JSON.parse(input) as string[][];
for (const args of commandLines) {
  // With --json a refusal is the answer on stdout: shown only when the command line fails.
  let answer = '';
  const code = await runCommandLine([...args, '--json'], process.env, process.cwd(), {
    stdout(text) {
      answer += text;
    },
    stderr(text) {
      process.stderr.write(text);
    },
  });
  if (code !== 0) {
    process.stderr.write(`parley ${args.join(' ')} exited with ${String(code)}: ${answer}`);
    process.exit(code);
  }
}
