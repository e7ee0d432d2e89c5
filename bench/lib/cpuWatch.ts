import type { Storage } from './parley.js';
import { processCpuMs } from './processCpu.js';
import { databaseModules, rowsOf } from './serverModules.js';

export interface CpuWatch {
  /** Milliseconds of CPU each watched process used since the watch began (null without /proc). */
  used(): Promise<Record<string, number | null>>;
}

/** The PostgreSQL backends serving this database (the servers' pools), by pid. */
async function backendPids(storage: Storage): Promise<number[]> {
  if (storage.databaseUrl === null) return [];
  const m = await databaseModules();
  const admin = await m.openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir, poolMax: 1 });
  try {
    const name = new URL(storage.databaseUrl).pathname.slice(1);
    const rows = await rowsOf(admin, 'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    return rows.map((r) => Number(r.pid));
  } finally {
    await admin.close();
  }
}

/**
 * CPU of the server processes and, on PostgreSQL, of the database's backends (those connected when the watch
 * begins and ends: a backend that comes and goes in between is missed, which the pools' long-lived
 * connections make rare).
 */
export async function watchCpu(processes: Record<string, number>, storage: Storage): Promise<CpuWatch> {
  const before = new Map<string, number | null>();
  for (const [name, pid] of Object.entries(processes)) before.set(name, await processCpuMs(pid));
  const backendsBefore = new Map<number, number>();
  for (const pid of await backendPids(storage)) backendsBefore.set(pid, (await processCpuMs(pid)) ?? 0);
  return {
    async used() {
      const result: Record<string, number | null> = {};
      for (const [name, pid] of Object.entries(processes)) {
        const [b, a] = [before.get(name) ?? null, await processCpuMs(pid)];
        result[name] = a === null || b === null ? null : a - b;
      }
      if (storage.databaseUrl !== null) {
        let total = 0;
        const pids = new Set([...backendsBefore.keys(), ...(await backendPids(storage))]);
        for (const pid of pids) {
          const now = await processCpuMs(pid);
          if (now !== null) total += now - (backendsBefore.get(pid) ?? 0);
        }
        result.database = total;
      }
      return result;
    },
  };
}

