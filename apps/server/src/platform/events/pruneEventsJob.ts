import { and, isNotNull, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { events } from '../db/schema/index.js';
import { defineJob } from '../jobs/queue.js';

/** Deletes dispatched outbox events older than the retention period. Hourly, from the scheduler role. */
export function pruneEventsJob(database: Database, retentionDays: number) {
  return defineJob({
    name: 'maintenance.prune-events',
    data: z.object({}).loose(),
    schedule: { cron: '17 * * * *' },
    async handler(_data, ctx) {
      const deleted = await database.db
        .delete(events)
        .where(
          and(
            isNotNull(events.dispatchedAt),
            lt(events.dispatchedAt, sql`now() - make_interval(days => ${retentionDays})`),
          ),
        )
        .returning({ id: events.id });
      ctx.log.info({ deleted: deleted.length, retentionDays }, 'pruned dispatched events');
    },
  });
}
