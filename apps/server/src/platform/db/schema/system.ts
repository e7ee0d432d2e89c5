import { index, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row that readiness checks write (routes/system): a database that answers reads but refuses writes
 * (a full disk, a read-only standby after a failover) is not ready.
 */
export const readinessProbe = pgTable('readiness_probe', {
  id: smallint('id').primaryKey(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
});

/**
 * Answers kept for a POST sent with an `Idempotency-Key` (platform/http/idempotency.ts): per account, caller
 * and key, the request's fingerprint and, once answered, the status and body a retry gets again. 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: uuid('account_id').notNull(),
    /** The user or API client that sent it: one caller's keys never meet another's. */
    callerId: text('caller_id').notNull(),
    key: text('key').notNull(),
    /** sha256 of the method, route and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is being answered. */
    status: smallint('status'),
    responseBody: text('response_body'),
    responseType: text('response_type'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the request holding the key began; a holder that died long ago leaves it to a retry. */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.callerId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
