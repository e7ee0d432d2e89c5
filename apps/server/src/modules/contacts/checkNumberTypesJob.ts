import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { abandonNumberTypeCheck, runNumberTypeCheck } from './numberTypeCheckRunner.js';
import { refineNumberTypes, type ConfirmNumberType } from './numberTypeRefiner.js';

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

/** Every minute, where a lookup provider is configured: the provider confirms the types read from ranges. */
export function refineNumberTypesJob(database: Database, confirm: ConfirmNumberType) {
  return defineJob({
    name: 'contacts.refineNumberTypes',
    data: z.object({}).loose(),
    schedule: { cron: '* * * * *' },
    expireInSeconds: 10 * 60,
    async handler(_data, ctx) {
      const outcome = await refineNumberTypes(database, confirm);
      if (outcome.confirmed + outcome.failed > 0) ctx.log.info(outcome, 'confirmed number types with the lookup provider');
    },
  });
}
