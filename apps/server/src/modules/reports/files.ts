import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isUuid } from '../../platform/db/ids.js';

/**
 * Report files on disk under DATA_DIR/reports, one `<id>.csv` each. Every process that builds reports
 * (worker) or serves their links (web) must see the same directory: one machine, or a shared volume.
 */
export const reportsDir = (dataDir: string): string => path.join(dataDir, 'reports');


/** The file of a report id; null for anything that is not a lowercase UUID (no path can be smuggled in). */
export function reportFile(dir: string, id: string): string | null {
  return isUuid(id) && id === id.toLowerCase() ? path.join(dir, `${id}.csv`) : null;
}

/**
 * Writes the chunks to the report's file as they come (never all in memory): into a temporary file beside
 * it, renamed when complete, so a reader never sees half a report and a process that dies leaves none.
 */
export async function writeReportFile(
  dir: string,
  id: string,
  chunks: AsyncIterable<string>,
  signal?: AbortSignal,
): Promise<{ bytes: number }> {
  const file = reportFile(dir, id);
  if (file === null) throw new Error(`not a report id: ${id}`);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await pipeline(chunks, createWriteStream(temporary, { mode: 0o600 }), signal === undefined ? {} : { signal });
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return { bytes: (await fs.stat(file)).size };
}

/** The report's bytes as a stream and their length, or null when there is no such file (any more). */
export async function openReportFile(dir: string, id: string): Promise<{ stream: Readable; size: number } | null> {
  const file = reportFile(dir, id);
  if (file === null) return null;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const { size } = await handle.stat();
  return { stream: handle.createReadStream({ autoClose: true }), size };
}

/**
 * Removes report files (and temporary files a dead process left) last changed before `olderThan`.
 * Answers how many were removed.
 */
export async function pruneReportFiles(dir: string, olderThan: Date): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.csv') && !name.endsWith('.tmp')) continue;
    const file = path.join(dir, name);
    try {
      const stat = await fs.stat(file);
      if (stat.mtime >= olderThan) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    } catch (error) {
      // Removed meanwhile by another process: nothing to do.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
