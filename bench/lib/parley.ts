import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import type { BenchContext, DatabaseTarget } from './benchmark.js';
import { freePort } from './freePort.js';
import { scratchPostgres } from './scratchPostgres.js';
import { serverDist } from './serverModules.js';
import { startServerProcess } from './serverProcess.js';
import { tempDir } from './tempDir.js';

/** Where the server under test keeps its data. */
export interface Storage {
  /** A database of the run's own (dropped when the run ends); null for PGlite in dataDir. */
  readonly databaseUrl: string | null;
  /** The server's data dir (PGlite's data, media, reports), removed when the run ends. */
  readonly dataDir: string;
}

export async function benchStorage(target: DatabaseTarget, name: string, context: BenchContext): Promise<Storage> {
  const dataDir = await tempDir(`parley-bench-${name}-`, context.scope);
  if (target.kind === 'pglite') return { databaseUrl: null, dataDir };
  return { databaseUrl: await scratchPostgres(target.url, `parley_${name}`, context.scope), dataDir };
}

export interface RunningParley {
  /** http://host:port of the web process. */
  readonly url: string;
  /** The processes, web first; for their CPU time. */
  readonly pids: readonly number[];
  /** 'web + worker' on PostgreSQL, 'one' on PGlite. */
  readonly processes: string;
  /** Why the web process ended, with its last output, when it did: for the error of a run it broke. */
  explainExit(): string | null;
  stop(): Promise<void>;
}

/** BENCH_SERVER_NODE_ARGS (say `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the server under test. */
const serverNodeArgs = (): string[] => (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');

/**
 * Parley as it is deployed: on PostgreSQL a web process (requests, websockets) and a worker process
 * (jobs, dispatcher, receipts, outbox); on PGlite one process, as embedded mode is. `env` adds to the
 * storage, PUBLIC_URL, the simulator and LOG_LEVEL=warn.
 */
export async function startParley(storage: Storage, env: Readonly<Record<string, string>>, context: BenchContext): Promise<RunningParley> {
  const port = await freePort('127.0.0.1');
  const url = `http://127.0.0.1:${String(port)}`;
  const common: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DATA_DIR: storage.dataDir,
    PUBLIC_URL: url,
    SIMULATOR: 'true',
    ...env,
    ...(storage.databaseUrl === null ? {} : { DATABASE_URL: storage.databaseUrl }),
  };
  const split = storage.databaseUrl !== null;
  const server = await startServerProcess(
    {
      name: 'parley',
      script: path.join(serverDist, 'main.js'),
      env: { ...common, ...(split ? { SERVICES: 'web' } : {}) },
      readyPath: '/healthz',
      port,
      nodeArgs: serverNodeArgs(),
    },
    context.scope,
  );
  const worker = split ? await startWorker({ ...common, SERVICES: 'worker', LOG_LEVEL: 'info' }, context) : null;
  return {
    url,
    pids: worker === null ? [server.pid] : [server.pid, worker.pid],
    processes: split ? 'web + worker' : 'one',
    explainExit() {
      const { ended, output } = server.lastWords();
      return ended === null ? null : `the server ${ended}. Its last output:\n${output.join('\n')}`;
    },
    async stop() {
      await worker?.stop();
      await server.stop();
    },
  };
}

/** A worker-only process (it serves no HTTP): ready once it logs that it runs. */
export async function startWorker(env: Record<string, string>, context: BenchContext): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...serverNodeArgs(), path.join(serverDist, 'main.js')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      child.once('exit', () => {
        resolve();
      });
      child.kill('SIGTERM');
    }));
  context.scope.defer(stop);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error('the worker did not start within 60 s'));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with code ${String(code)}`));
    });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"msg":"Parley is running"')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  if (child.pid === undefined) throw new Error('the worker has no process id');
  return { pid: child.pid, stop };
}

/** An access token for an API client (client credentials), as an integration gets one. */
export async function accessToken(url: string, client: { clientId: string; secret: string }): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`).toString('base64');
  const response = await fetch(`${url}/oidc/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials' }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || body.access_token === undefined) throw new Error(`no token: ${String(response.status)} ${JSON.stringify(body)}`);
  return body.access_token;
}
