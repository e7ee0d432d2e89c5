import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import type { MediaStorage } from './storage.js';
import { removeUnnamedObjects } from './unnamedObjects.js';
import { removeUnreferencedFiles } from './unreferencedFiles.js';
import { defineJob } from '../../platform/jobs/queue.js';

/**
 * Removes media files nothing holds any more, past the grace period (modules/media/unreferencedFiles.ts). Hourly,
 * from the scheduler role; each statement short, so it never holds the embedded database for long.
 */
export function sweepUnreferencedMediaJob(database: Database, storage: MediaStorage) {
  return defineJob({
    name: 'media.sweep-unreferenced',
    data: z.object({}).loose(),
    schedule: { cron: '23 * * * *' },
    expireInSeconds: 50 * 60,
    async handler(_data, ctx) {
      const result = await removeUnreferencedFiles(database.db, storage, { log: ctx.log, signal: ctx.signal });
      ctx.log.info(result, 'swept unreferenced media files');
    },
  });
}

/**
 * Deletes stored objects no row names (modules/media/unnamedObjects.ts): a removed account's folder, leftovers of
 * failures. Daily, since it lists the whole storage.
 */
export function sweepUnnamedMediaJob(database: Database, storage: MediaStorage) {
  return defineJob({
    name: 'media.sweep-storage',
    data: z.object({}).loose(),
    schedule: { cron: '47 3 * * *' },
    expireInSeconds: 4 * 3600,
    async handler(_data, ctx) {
      const result = await removeUnnamedObjects(database.db, storage, { log: ctx.log, signal: ctx.signal });
      if (result.skipped === 'not this database') {
        ctx.log.error('the media storage holds none of the newest files this database names: nothing was removed (check DATA_DIR, MEDIA_S3_BUCKET and DATABASE_URL)');
      }
      ctx.log.info(result, 'swept unnamed media objects');
    },
  });
}
