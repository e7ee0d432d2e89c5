#!/usr/bin/env node
// Runs npm scripts side by side, one lane per argument ("a+b" runs a, then b, in one lane), and fails when
// one fails. Each lane's output is held and printed whole when it ends, so lanes never interleave. The
// checks before the tests (type checks, lint, the build) each keep one core busy; two lanes keep both
// cores of a small CI machine busy (docs/testing.md).
import { spawn } from 'node:child_process';

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(Buffer.concat(output));
      const outcome = code === 0 ? 'passed' : `failed (${signal ?? `exit ${String(code)}`})`;
      console.log(`parallel: ${script} ${outcome} in ${seconds} s`);
      resolve(code === 0);
    });
  });
}

async function lane(scripts) {
  for (const script of scripts) if (!(await run(script))) return false;
  return true;
}

const lanes = process.argv.slice(2).map((arg) => arg.split('+'));
if (lanes.length === 0) {
  console.error('usage: node scripts/parallel.mjs <script>[+<script>...] ...');
  process.exit(2);
}
const results = await Promise.all(lanes.map(lane));
process.exit(results.every(Boolean) ? 0 : 1);
