import { pgTable, smallint, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row that readiness checks write (routes/system): a database that answers reads but refuses writes
 * (a full disk, a read-only standby after a failover) is not ready.
 */
export const readinessProbe = pgTable('readiness_probe', {
  id: smallint('id').primaryKey(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});
