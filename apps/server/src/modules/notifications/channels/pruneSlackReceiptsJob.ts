import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../../platform/db/client.js';
import { queryRows } from '../../../platform/db/client.js';
import { defineJob } from '../../../platform/jobs/queue.js';

/**
 * How long an applied Slack event's receipt is kept. Slack retries an event it got no answer to three times
 * within about 5 minutes (at once, after 1 minute, after 5); a day covers that many times over, clocks off
 * included, and keeps the table to a day of events.
 */
export const SLACK_RECEIPT_RETENTION_HOURS = 24;

/** Hourly: Slack events' receipts (slack_event_receipts) older than Slack's retries can come are deleted. */
export function pruneSlackReceiptsJob(database: Database) {
  return defineJob({
    name: 'maintenance.prune-slack-event-receipts',
    data: z.object({}).loose(),
    schedule: { cron: '29 * * * *' },
    async handler(_data, ctx) {
      const [deleted] = await queryRows<{ n: number }>(
        database.db,
        sql`with gone as (
              delete from slack_event_receipts where received_at < now() - make_interval(hours => ${SLACK_RECEIPT_RETENTION_HOURS})
              returning 1)
            select count(*)::int as n from gone`,
      );
      ctx.log.info({ deleted: deleted?.n ?? 0 }, 'pruned Slack event receipts');
    },
  });
}
