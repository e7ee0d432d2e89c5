import type { Storage } from './parley.js';
import { databaseModules, rowsOf } from './serverModules.js';

/** Rows one table had written: inserted, updated (of them HOT, touching no index) and deleted. */
export interface TableWrites {
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
}

export interface TableWritesWatch {
  /** Rows written per table since the watch began, the busiest first; null on PGlite (no statistics views). */
  written(): Promise<Record<string, TableWrites> | null>;
}

const STATS = `select relname as name, n_tup_ins::float8 as ins, n_tup_upd::float8 as upd, n_tup_hot_upd::float8 as hot, n_tup_del::float8 as del
                 from pg_stat_user_tables`;

async function snapshot(storage: Storage): Promise<Map<string, TableWrites>> {
  const m = await databaseModules();
  const database = await m.openDatabase({ databaseUrl: storage.databaseUrl, dataDir: storage.dataDir, poolMax: 1 });
  try {
    const rows = await rowsOf(database, STATS);
    return new Map(rows.map((r) => [String(r.name), { inserted: Number(r.ins), updated: Number(r.upd), hotUpdated: Number(r.hot), deleted: Number(r.del) }]));
  } finally {
    await database.close();
  }
}

/**
 * PostgreSQL's own count of the rows written to each table of the benchmark's database (pg_stat_user_tables),
 * between the watch's start and `written()`. Backends report their counts when a transaction ends, at most
 * once a second, and when they exit: read it after the servers have stopped for every write counted.
 */
export async function watchTableWrites(storage: Storage): Promise<TableWritesWatch> {
  if (storage.databaseUrl === null) return { written: () => Promise.resolve(null) };
  const before = await snapshot(storage);
  return {
    async written() {
      const after = await snapshot(storage);
      const delta: [string, TableWrites][] = [];
      for (const [name, a] of after) {
        const b = before.get(name) ?? { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
        const d = { inserted: a.inserted - b.inserted, updated: a.updated - b.updated, hotUpdated: a.hotUpdated - b.hotUpdated, deleted: a.deleted - b.deleted };
        if (d.inserted + d.updated + d.deleted > 0) delta.push([name, d]);
      }
      delta.sort((x, y) => y[1].inserted + y[1].updated + y[1].deleted - (x[1].inserted + x[1].updated + x[1].deleted));
      return Object.fromEntries(delta);
    },
  };
}

/** Rows written per unit of work (a delivery), per table and in all, to two decimals. */
export function perUnit(written: Record<string, TableWrites>, units: number): { total: number; byTable: Record<string, { inserted: number; updated: number; hotUpdated: number; deleted: number }> } {
  const round = (n: number): number => Math.round((n * 100) / Math.max(1, units)) / 100;
  let total = 0;
  const byTable: Record<string, TableWrites> = {};
  for (const [name, w] of Object.entries(written)) {
    total += w.inserted + w.updated + w.deleted;
    byTable[name] = { inserted: round(w.inserted), updated: round(w.updated), hotUpdated: round(w.hotUpdated), deleted: round(w.deleted) };
  }
  return { total: round(total), byTable };
}
