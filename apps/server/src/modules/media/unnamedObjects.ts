import { desc, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/client.js';
import { mediaFiles } from '../../platform/db/schema/index.js';
import type { MediaStorage, StoredObject } from './storage.js';
import { MEDIA_GRACE_HOURS } from './unreferencedFiles.js';
import { isUuid } from '../../platform/db/ids.js';

/** Objects listed per page, each page one database statement. */
export const OBJECTS_PAGE = 1_000;
/** Deletes in flight at once. */
const DELETES_AT_ONCE = 8;


export interface UnnamedSweepOptions {
  log: Logger;
  signal?: AbortSignal;
  graceHours?: number;
  now?: Date;
  pageSize?: number;
}

export interface UnnamedSweepResult {
  /** Why nothing was looked at, when nothing was. */
  skipped: 'no files' | 'not this database' | null;
  listed: number;
  removed: number;
}

/** `{accountId}/{name}`: the shape of every key Parley writes (mediaKey, and the disk storage's temporary files). */
function accountFile(key: string): { accountId: string; name: string } | null {
  const [accountId, name, more] = key.split('/');
  if (accountId === undefined || name === undefined || more !== undefined || !isUuid(accountId) || name === '') return null;
  return { accountId, name };
}

/**
 * Whether the storage holds this database's files: one of the newest rows' bytes is there. A database that
 * names no file, or a storage that belongs to another database (a wrong DATA_DIR, bucket or DATABASE_URL),
 * would make every object look unnamed; the sweep then removes nothing.
 */
async function holdsOurFiles(db: Db, storage: MediaStorage): Promise<UnnamedSweepResult['skipped']> {
  const newest = await db
    .select({ key: mediaFiles.key })
    .from(mediaFiles)
    .where(eq(mediaFiles.storage, storage.kind))
    .orderBy(desc(mediaFiles.createdAt))
    .limit(5);
  if (newest.length === 0) return 'no files';
  for (const { key } of newest) {
    const [found] = await storage.list({ prefix: key, limit: 1 });
    if (found?.key === key) return null;
  }
  return 'not this database';
}

/**
 * Deletes the stored objects no media_files row names, once older than the grace period: all that a removed
 * account left (its rows went with it), bytes whose row the unreferenced sweep removed but whose delete
 * failed, and what a crash between storing bytes and writing their row left. The storage is walked in key
 * order, a page at a time; objects of another shape than `{accountId}/{name}` are left alone.
 */
export async function removeUnnamedObjects(db: Db, storage: MediaStorage, options: UnnamedSweepOptions): Promise<UnnamedSweepResult> {
  const skipped = await holdsOurFiles(db, storage);
  if (skipped !== null) return { skipped, listed: 0, removed: 0 };
  const cutoff = (options.now ?? new Date()).getTime() - (options.graceHours ?? MEDIA_GRACE_HOURS) * 3_600_000;
  const pageSize = options.pageSize ?? OBJECTS_PAGE;
  const result: UnnamedSweepResult = { skipped: null, listed: 0, removed: 0 };
  let after = '';
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await storage.list({ after, limit: pageSize });
    result.listed += page.length;
    const old = page.filter((o) => o.modifiedAt.getTime() < cutoff && accountFile(o.key) !== null);
    const ids = old.map((o) => accountFile(o.key)?.name ?? '').filter((name) => isUuid(name));
    const named = new Set(
      ids.length === 0
        ? []
        : (await db.select({ id: mediaFiles.id }).from(mediaFiles).where(inArray(mediaFiles.id, ids))).map((r) => r.id.toLowerCase()),
    );
    const unnamed = old.filter((o) => !named.has(accountFile(o.key)?.name.toLowerCase() ?? ''));
    result.removed += await deleteAll(storage, unnamed, options.log);
    if (page.length < pageSize) break;
    after = page.reduce((max, o) => (o.key > max ? o.key : max), after);
  }
  return result;
}

async function deleteAll(storage: MediaStorage, objects: readonly StoredObject[], log: Logger): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < objects.length; i += DELETES_AT_ONCE) {
    await Promise.all(
      objects.slice(i, i + DELETES_AT_ONCE).map(async ({ key }) => {
        try {
          await storage.delete(key);
          deleted += 1;
        } catch (error) {
          log.warn({ err: error, key }, 'an unnamed media object could not be deleted; the next sweep retries');
        }
      }),
    );
  }
  return deleted;
}
