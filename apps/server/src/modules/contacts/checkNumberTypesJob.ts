import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { abandonNumberTypeCheck, runNumberTypeCheck } from './numberTypeCheckRunner.js';

export const CHECK_NUMBER_TYPES_RETRIES = 3;

/**
 * Checks the number types of selected contacts (numberTypeCheckRunner.ts). A retry resumes after the last
 * committed batch; when the last attempt fails too, the check is marked failed so the page stops waiting.
 */
export function checkNumberTypesJob(database: Database) {
  return defineJob({
    name: 'contacts.checkNumberTypes',
    data: z.object({ checkId: z.uuid() }),
    retryLimit: CHECK_NUMBER_TYPES_RETRIES,
    retryDelaySeconds: 5,
    expireInSeconds: 60 * 60,
    async handler({ checkId }, ctx) {
      try {
        await runNumberTypeCheck(database, checkId);
      } catch (error) {
        if (ctx.retryCount >= CHECK_NUMBER_TYPES_RETRIES) await abandonNumberTypeCheck(database, checkId);
        throw error;
      }
    },
  });
}
