import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db/client.js';
import { accounts, mediaFiles, type MediaFileRow } from '../../platform/db/schema/index.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';
import { createAccount } from '../../test/factories.js';
import { silentLogger } from '../../test/logger.js';
import { storeMediaFile } from './mediaFiles.js';
import { mediaKey, type MediaStorage } from './storage.js';
import { isStored, openTestStorage, testMediaServices, testStorageKinds, type TestStorage } from './test/testStorages.js';
import { removeUnnamedObjects } from './unnamedObjects.js';

const HOUR = 3_600_000;
const bytes = Buffer.from('not really a png');

describe.each(testDatabaseKinds)('unnamed media objects on %s', (databaseKind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(databaseKind);
  });
  afterAll(async () => {
    await database.close();
  });

  describe.each(testStorageKinds)('in %s storage', (storageKind) => {
    let t: TestStorage;
    beforeAll(async () => {
      t = await openTestStorage(storageKind);
    });
    afterAll(async () => {
      await t.close();
    });

    const store = (accountId: string): Promise<MediaFileRow> =>
      storeMediaFile(database.db, testMediaServices(t.storage), {
        accountId,
        contentType: 'image/png',
        filename: 'a.png',
        bytes,
        width: 1,
        height: 1,
        source: 'upload',
      });
    /** As the sweep would run a day and more from now, when every object here is past the grace period. */
    const sweepLater = (storage: MediaStorage = t.storage) =>
      removeUnnamedObjects(database.db, storage, { log: silentLogger(), now: new Date(Date.now() + 25 * HOUR), pageSize: 2 });

    // First: the database names no file of this storage yet.
    it('removes nothing while the database names no stored file', async () => {
      const key = mediaKey(randomUUID(), uuidv7());
      await t.storage.put(key, bytes, 'image/png');
      expect(await sweepLater()).toEqual({ skipped: 'no files', listed: 0, removed: 0 });
      expect(await isStored(t.storage, key)).toBe(true);
      await t.storage.delete(key);
    });

    it('removes what a removed account left and bytes no row names, once past the grace period', async () => {
      const removed = await createAccount(database.db);
      const stays = await createAccount(database.db);
      const left = [await store(removed.id), await store(removed.id), await store(removed.id)];
      const named = await store(stays.id);
      // What a crash between storing the bytes and writing the row leaves, and a temporary file of the disk storage.
      const unnamed = [mediaKey(stays.id, uuidv7()), `${stays.id}/${uuidv7()}.${randomUUID()}.tmp`];
      // Not of Parley's shape: never touched.
      const foreign = ['readme', 'not-an-account/file'];
      for (const key of [...unnamed, ...foreign]) await t.storage.put(key, bytes, 'image/png');
      await database.db.delete(accounts).where(eq(accounts.id, removed.id));
      expect(await database.db.select().from(mediaFiles).where(eq(mediaFiles.accountId, removed.id))).toEqual([]);

      // Just written: nothing is old enough yet.
      const now = await removeUnnamedObjects(database.db, t.storage, { log: silentLogger() });
      expect(now.removed).toBe(0);
      for (const key of [...left.map((f) => f.key), ...unnamed]) expect(await isStored(t.storage, key)).toBe(true);

      const later = await sweepLater();
      expect(later.skipped).toBeNull();
      expect(later.removed).toBe(left.length + unnamed.length);
      for (const key of [...left.map((f) => f.key), ...unnamed]) expect(await isStored(t.storage, key)).toBe(false);
      for (const key of [named.key, ...foreign]) expect(await isStored(t.storage, key)).toBe(true);
      if (t.dir !== null) {
        // The removed account's folder is gone from the disk.
        await expect(fs.stat(path.join(t.dir, removed.id))).rejects.toThrow();
      }
      for (const key of foreign) await t.storage.delete(key);
    });

    it('removes nothing from a storage that holds none of this database’s files', async () => {
      const other = await openTestStorage(storageKind);
      try {
        await store((await createAccount(database.db)).id);
        const key = mediaKey(randomUUID(), uuidv7());
        await other.storage.put(key, bytes, 'image/png');
        expect(await sweepLater(other.storage)).toEqual({ skipped: 'not this database', listed: 0, removed: 0 });
        expect(await isStored(other.storage, key)).toBe(true);
      } finally {
        await other.close();
      }
    });
  });
});
