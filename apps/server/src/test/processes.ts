import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const builtMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const builtCli = fileURLToPath(new URL('../../bin/parley.js', import.meta.url));

export interface ParleyProcess {
  child: ChildProcess;
  /** Parsed JSON log lines from stdout. */
  lines: Record<string, unknown>[];
  stderr: () => string;
  /** Resolves with the process's URL once it logs that it is ready. */
  ready: () => Promise<string>;
  exited: Promise<number | null>;
  stop: () => Promise<number | null>;
}

/** Runs the built server (npm test builds it before the tests) as its own process. */
export function spawnParley(env: Record<string, string>, args: string[] = []): ParleyProcess {
  if (!fs.existsSync(builtMain)) throw new Error(`${builtMain} is missing: run \`npx tsc -b\` first`);
  const child = spawn(process.execPath, [builtMain, ...args], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        lines.push({ msg: line });
      }
    }
    for (const w of waiters) w();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    resolve(code);
    for (const w of waiters) w();
  }));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    ready: () =>
      new Promise<string>((resolve, reject) => {
        const check = (): void => {
          const line = lines.find(
            (l) => typeof l.url === 'string' && typeof l.msg === 'string' && l.msg.startsWith('Parley is ready'),
          );
          if (line) {
            waiters.delete(check);
            resolve(String(line.url));
          } else if (exitCode !== undefined) {
            waiters.delete(check);
            reject(new Error(`the process exited (${String(exitCode)}): ${stderr}`));
          }
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built operator CLI as its own process with only the given environment (and PATH). */
export function runCli(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [builtCli, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('exit', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}
