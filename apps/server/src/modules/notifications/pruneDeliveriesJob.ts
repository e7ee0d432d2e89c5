import { sql, type SQL } from 'drizzle-orm';
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
      /** The rows a writing statement (`changed`, returning a row each) touched. */
      const count = async (changed: SQL): Promise<number> =>
        (await queryRows<{ n: number }>(database.db, sql`with changed as (${changed}) select count(*)::int as n from changed`))[0]?.n ?? 0;
      const gaveUp = await count(sql`
        update notification_deliveries set status = 'failed'
         where status = 'pending' and created_at < now() - ${DELIVERY_GIVE_UP_MS} * interval '1 millisecond'
        returning 1`);
      const deleted = await count(sql`
        delete from notification_deliveries
         where status <> 'pending' and created_at < now() - make_interval(days => ${DELIVERY_LOG_RETENTION_DAYS})
        returning 1`);
      // An event's deliveries are as old as it is: past the retention none of them refers to it.
      const events = await count(sql`
        delete from notification_events where created_at < now() - make_interval(days => ${DELIVERY_LOG_RETENTION_DAYS})
        returning 1`);
      ctx.log.info({ gaveUp, deleted, events }, 'pruned notification deliveries');
    },
  });
}
