import fs from 'node:fs';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from './config.js';

/**
 * WORKER_NICE: a worker process sharing its machine with a web process gives way to it for the CPU, so a
 * campaign sending in the background does not hold up requests (an incoming message's webhook, the inbox).
 * Only a process that runs the worker role without the web role lowers itself; the CPU left idle is still
 * the worker's. Answers the nice value set, or null when nothing changed.
 */
export function applyWorkerNice(config: Pick<Config, 'services' | 'workerNice'>, log: Logger): number | null {
  const { services, workerNice } = config;
  if (workerNice === 0 || !services.includes('worker') || services.includes('web')) return null;
  // Linux keeps a nice value per thread: each thread running now (V8's among them) is lowered; threads
  // started later (libuv's pool) inherit it from the thread that starts them.
  for (const id of threadIds()) {
    try {
      os.setPriority(id, workerNice);
    } catch (error) {
      // A thread that ended meanwhile needs nothing.
      if (error instanceof Error && 'code' in error && error.code === 'ESRCH') continue;
      log.warn({ err: error, workerNice }, 'WORKER_NICE could not be applied; the worker runs at its usual priority');
      return null;
    }
  }
  log.info({ workerNice }, 'the worker gives way to other processes for the CPU (WORKER_NICE)');
  return workerNice;
}

/** The process's threads on Linux; elsewhere the process itself (0). */
function threadIds(): number[] {
  try {
    return fs
      .readdirSync('/proc/self/task')
      .map(Number)
      .filter((id) => Number.isInteger(id) && id > 0);
  } catch {
    return [0];
  }
}
