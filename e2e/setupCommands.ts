import { runCommandLines } from '../apps/server/dist/cli/commands.js';

/*
 * Runs the global setup's CLI command lines (a JSON array of argument lists on stdin) one after the other in
 * this one process, through the built CLI's own runner (apps/server/src/cli/commands.ts): one process start,
 * one load of the server's code and one opening of the database for all of them. The first that fails stops
 * the rest.
 */

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const commandLines = (JSON.parse(input) as string[][]).map((args) => [...args, '--json']);
// With --json each command line answers one line on stdout; a refusal is the last, shown only on failure.
const answers: string[] = [];
const code = await runCommandLines(commandLines, process.env, process.cwd(), {
  stdout(text) {
    answers.push(text);
  },
  stderr(text) {
    process.stderr.write(text);
  },
});
if (code !== 0) {
  process.stderr.write(`parley ${(commandLines[answers.length - 1] ?? []).join(' ')} exited with ${String(code)}: ${answers.at(-1) ?? ''}`);
  process.exit(code);
}
