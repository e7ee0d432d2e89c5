import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const main = path.join(root, 'apps/server/dist/main.js');
const setupCommands = path.join(root, 'e2e/setupCommands.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

export interface ParleyServer {
  /** PUBLIC_URL: http://localhost:<port>. */
  url: string;
  /** The server's log (stdout and stderr), for a failing test's message. */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * A Parley of its own for one spec, beside the one of the global setup: the built server on a free
 * port with a fresh data directory. Only for a spec that changes what the whole server does (sign-in by an
 * external issuer, payments); the integrations' peers are configured on the global server (peers.ts). `setup` runs CLI commands first, all in one process (the embedded database belongs to
 * one process at a time); `env` adds configuration.
 */
export async function startParley(options: { port?: number; env?: Record<string, string>; setup?: string[][] } = {}): Promise<ParleyServer> {
  const port = options.port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-extra-'));
  const logFile = path.join(dataDir, 'server.log');
  const url = `http://localhost:${String(port)}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...options.env };
  if (options.setup !== undefined && options.setup.length > 0) {
    // All the command lines in one process on one opening of the database, as the global setup does.
    // Waited for without blocking, so two servers of one spec can be set up side by side.
    const setup = spawn(process.execPath, ['--import', 'tsx', setupCommands], { cwd: root, env, stdio: ['pipe', 'ignore', 'inherit'] });
    setup.stdin.end(JSON.stringify(options.setup));
    const [code] = (await once(setup, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the setup's command lines exited with ${String(code)}`);
  }
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = fs.createWriteStream(logFile);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      const timer = setTimeout(() => {
        reject(new Error(`the server did not start in 60 s; see ${logFile}`));
      }, 60_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        log.write(chunk);
        buffer += chunk;
        if (buffer.includes('"msg":"Parley is ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${String(code)}); see ${logFile}`));
      });
    });
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  return {
    url,
    logFile,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      log.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
