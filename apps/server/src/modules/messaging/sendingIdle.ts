import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../platform/db/client.js';

/**
 * Whether nothing is being sent or about to be: no campaign execution preparing or queueing its messages
 * (between two batches the queue may run dry), no message 'sending' and none 'queued' whose time has come
 * (held ones, for quiet hours or a schedule, do not count). Probes of the partial indexes the dispatcher
 * uses. Maintenance that holds the embedded database's session waits for this.
 */
export async function sendingIdle(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ idle: boolean }>(
    db,
    sql`select not exists (select 1 from campaign_jobs where status in ('preparing', 'running'))
               and not exists (select 1 from messages where status = 'sending')
               and not exists (select 1 from messages where status = 'queued' and send_after <= now()) as idle`,
  );
  return row?.idle === true;
}
