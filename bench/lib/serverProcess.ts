import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import readline from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from './freePort.js';
import type { Scope } from './scope.js';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const OUTPUT_LINES_KEPT = 40;

export interface ServerProcessOptions {
  readonly name: string;
  readonly script: string;
  /** The child's whole environment besides PATH, PORT and HOST: nothing leaks in from the runner's. */
  readonly env: Readonly<Record<string, string>>;
  /** Answers 200 once the server takes requests. */
  readonly readyPath: string;
  /** A port chosen beforehand, when the environment must name it (PUBLIC_URL); otherwise a free one. */
  readonly port?: number;
  /** Options for node itself, before the script (profiling flags, which NODE_OPTIONS does not take). */
  readonly nodeArgs?: readonly string[];
}

export interface ServerProcess {
  readonly name: string;
  /** http://host:port, without a trailing slash. */
  readonly url: string;
  readonly pid: number;
  /** From spawning the process to its first answer on readyPath. */
  readonly startupMs: number;
  /** Its last lines of output and how it ended (null while it runs): why a server died mid-run. */
  lastWords(): { ended: string | null; output: readonly string[] };
  stop(): Promise<void>;
}

// A child still running when the runner exits, however it exits, is killed rather than orphaned.
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Runs a Node script as a server on a port of its own and resolves once it answers readyPath. */
export async function startServerProcess(options: ServerProcessOptions, scope: Scope): Promise<ServerProcess> {
  scope.signal.throwIfAborted();
  const port = options.port ?? (await freePort(HOST));
  scope.signal.throwIfAborted();
  const url = `http://${HOST}:${port}`;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: { PATH: process.env.PATH ?? '', ...options.env, PORT: String(port), HOST },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const state: { ended: string | null } = { ended: null };
  child.once('exit', (code, signal) => {
    running.delete(child);
    state.ended = signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`;
  });
  child.once('error', (error) => {
    running.delete(child);
    state.ended = `could not run: ${error.message}`;
  });
  const output = keepLastLines(child);

  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => (stopping ??= terminate(child));
  scope.defer(stop);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    scope.signal.throwIfAborted();
    if (state.ended !== null) {
      throw new Error(`${options.name} ${state.ended} before it was ready. Its last output:\n${output.join('\n')}`);
    }
    if (await answersOk(url + options.readyPath)) break;
    if (Date.now() > deadline) {
      throw new Error(`${options.name} did not answer ${options.readyPath} within ${READY_TIMEOUT_MS} ms`);
    }
    await delay(100);
  }
  // Unreachable: a process that never started cannot have answered.
  if (child.pid === undefined) throw new Error(`${options.name} has no process id`);
  const lastWords = (): { ended: string | null; output: readonly string[] } => ({ ended: state.ended, output: [...output] });
  return { name: options.name, url, pid: child.pid, startupMs: Math.round(performance.now() - spawnedAt), lastWords, stop };
}

function keepLastLines(child: ChildProcess): string[] {
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (lines.length > OUTPUT_LINES_KEPT) lines.shift();
    });
  }
  return lines;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (!running.has(child)) return;
  const exited = once(child, 'exit').then(() => 'exited' as const);
  child.kill('SIGTERM');
  const timedOut = delay(STOP_TIMEOUT_MS, 'timedOut' as const, { ref: false });
  if ((await Promise.race([exited, timedOut])) === 'timedOut') {
    child.kill('SIGKILL');
    await exited;
  }
}

/** One request on its own connection, so no keep-alive socket is left holding the server open. */
function answersOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 1000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => {
      resolve(false);
    });
  });
}
