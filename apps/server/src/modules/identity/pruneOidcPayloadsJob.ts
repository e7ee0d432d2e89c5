import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { oidcPayloads } from '../../platform/db/schema/index.js';
import { defineJob } from '../../platform/jobs/queue.js';

/** Rows deleted per statement, so a large backlog never holds one long lock. */
export const PRUNE_OIDC_BATCH = 5_000;

/**
 * Deletes the embedded issuer's expired rows (sessions, interactions, codes, refresh tokens, grants,
 * social sign-in attempts) from `oidc_payloads`. The adapter already ignores them on read; this keeps
 * the table from growing. Hourly, from the scheduler role. Rows without an expiry are kept.
 */
export function pruneOidcPayloadsJob(database: Database, batchSize: number = PRUNE_OIDC_BATCH) {
  return defineJob({
    name: 'maintenance.prune-oidc-payloads',
    data: z.object({}).loose(),
    schedule: { cron: '41 * * * *' },
    async handler(_data, ctx) {
      let deleted = 0;
      for (;;) {
        const { model, id, expiresAt } = oidcPayloads;
        const rows = await database.db
          .delete(oidcPayloads)
          .where(
            sql`(${model}, ${id}) in (select ${model}, ${id} from ${oidcPayloads} where ${expiresAt} < now() limit ${batchSize})`,
          )
          .returning({ id });
        deleted += rows.length;
        if (rows.length < batchSize || ctx.signal.aborted) break;
      }
      ctx.log.info({ deleted }, 'pruned expired issuer rows');
    },
  });
}
