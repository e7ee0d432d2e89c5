import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const main = path.join(root, 'apps/server/dist/main.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');

/**
 * Starts the built product on a free port with a fresh data directory, as `npm start` would, and
 * hands its address to the tests in E2E_BASE_URL. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const [file, how] of [
    [main, 'npx tsc -b'],
    [webIndex, 'npm run build -w @parley/web'],
  ] as const) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`${how}\` (npm test does) first`);
  }
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    throw new Error(`No Chromium at ${chromium}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
  const logFile = path.join(dataDir, 'server.log');
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = fs.createWriteStream(logFile);
  child.stderr.pipe(log);
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => {
      reject(new Error(`the server did not start in 60 s; see ${logFile}`));
    }, 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      log.write(chunk);
      buffer += chunk;
      const match = /"url":"([^"]+)","msg":"Parley is ready/.exec(buffer);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${String(code)}); see ${logFile}`));
    });
  });
  process.env.E2E_BASE_URL = url;
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    log.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
