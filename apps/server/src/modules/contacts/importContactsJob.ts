import { z } from 'zod';
import { abandonContactImport, runContactImport } from './contactImporterJob.js';
import type { Database } from '../../platform/db/client.js';
import { defineJob } from '../../platform/jobs/queue.js';

export const IMPORT_CONTACTS_RETRIES = 3;
export const IMPORT_ABANDONED_MESSAGE = 'The import stopped unexpectedly. The rows counted so far went in; upload the file again to finish.';

/**
 * Imports an uploaded contact file. A retry resumes after the last committed batch; when the last attempt
 * fails too, the import is marked failed so the wizard stops waiting.
 */
export function importContactsJob(database: Database) {
  return defineJob({
    name: 'contacts.import',
    data: z.object({ importId: z.uuid() }),
    retryLimit: IMPORT_CONTACTS_RETRIES,
    retryDelaySeconds: 5,
    expireInSeconds: 60 * 60,
    async handler({ importId }, ctx) {
      try {
        const result = await runContactImport(database, importId);
        ctx.log.info({ importId, status: result?.status, submitted: result?.result.submitted }, 'contact import finished');
      } catch (error) {
        if (ctx.retryCount >= IMPORT_CONTACTS_RETRIES) await abandonContactImport(database, importId, IMPORT_ABANDONED_MESSAGE);
        throw error;
      }
    },
  });
}
