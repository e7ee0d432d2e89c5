import fs from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { Queryable } from './client.js';

/** Below this much free space where Parley keeps files, a process is not ready: writes are about to fail. */
export const MIN_FREE_DISK_BYTES = 100 * 1024 * 1024;

/** Writes the readiness row and commits: throws when the database takes no writes. */
export async function probeWrites(db: Queryable, now: Date = new Date()): Promise<void> {
  await db.execute(
    sql`insert into readiness_probe (id, checked_at) values (1, ${now.toISOString()}::timestamptz)
        on conflict (id) do update set checked_at = excluded.checked_at`,
  );
}

export type StatFs = (path: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

/**
 * Whether each directory's file system has room left for an unprivileged writer (what root keeps back
 * does not count): the directories that do not exist (yet) are skipped.
 */
export async function diskHasRoom(dirs: readonly string[], statfs: StatFs = fs.statfs, minFreeBytes = MIN_FREE_DISK_BYTES): Promise<boolean> {
  for (const dir of dirs) {
    let stats: Awaited<ReturnType<StatFs>>;
    try {
      stats = await statfs(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (Number(stats.bavail) * Number(stats.bsize) < minFreeBytes) return false;
  }
  return true;
}
