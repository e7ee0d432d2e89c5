import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { queryRows } from '../../platform/db/client.js';
import { defineJob } from '../../platform/jobs/queue.js';
import { DELIVERY_GIVE_UP_MS } from './retrySchedule.js';

/** How long the delivery log keeps a delivery that is done (delivered or failed), with its tries. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;

/**
 * Hourly: a delivery still waiting past the give-up time (its notification was disabled meanwhile, so no
 * sender tried it) fails; done deliveries older than the retention go, their tries with them, and the events
 * webhooks read older than it.
 */
export function pruneDeliveriesJob(database: Database) {
  return defineJob({
    name: 'maintenance.prune-notification-deliveries',
    data: z.object({}).loose(),
    schedule: { cron: '23 * * * *' },
    async handler(_data, ctx) {
      const [gaveUp] = await queryRows<{ n: number }>(
        database.db,
        sql`with failed as (
              update notification_deliveries set status = 'failed'
               where status = 'pending' and created_at < now() - ${DELIVERY_GIVE_UP_MS} * interval '1 millisecond'
              returning 1)
            select count(*)::int as n from failed`,
      );
      const [deleted] = await queryRows<{ n: number }>(
        database.db,
        sql`with gone as (
              delete from notification_deliveries
               where status <> 'pending' and created_at < now() - make_interval(days => ${DELIVERY_LOG_RETENTION_DAYS})
              returning 1)
            select count(*)::int as n from gone`,
      );
      // An event's deliveries are as old as it is: past the retention none of them refers to it.
      const [events] = await queryRows<{ n: number }>(
        database.db,
        sql`with gone as (
              delete from notification_events where created_at < now() - make_interval(days => ${DELIVERY_LOG_RETENTION_DAYS})
              returning 1)
            select count(*)::int as n from gone`,
      );
      ctx.log.info({ gaveUp: gaveUp?.n ?? 0, deleted: deleted?.n ?? 0, events: events?.n ?? 0 }, 'pruned notification deliveries');
    },
  });
}
