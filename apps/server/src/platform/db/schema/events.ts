import { sql } from 'drizzle-orm';
import { bigserial, primaryKey, index, integer, jsonb, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The outbox. Commands write events here in their own transaction; the dispatcher hands them to
 * subscribers after commit, in id order, and marks them dispatched. Rows survive restarts, so an
 * event is delivered at least once even if a process dies between commit and delivery.
 */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    accountId: uuid('account_id'),
    userId: uuid('user_id'),
    /**
     * The group of the conversation the event is about, when it has one: realtime delivers such events to
     * that group's users and the account's administrators only. Filled in from the conversation as the
     * event is written.
     */
    groupId: uuid('group_id'),
    /**
     * 0: interactive (an incoming message, a conversation closed ...), 1: bulk (messageSent and messageStatus,
     * which campaigns write by the ten thousand). Each lane has its own dispatch loop, so an incoming message
     * never waits behind a campaign's status events.
     */
    lane: smallint('lane').notNull().default(0),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    index('events_pending_idx').on(t.lane, t.id).where(sql`${t.dispatchedAt} is null`),
    index('events_account_idx').on(t.accountId, t.id),
  ],
);

export type EventRow = typeof events.$inferSelect;

/**
 * Which event types an account's own subscribers want (platform/events/outbox.ts): an event of such a type
 * is written pending, so the dispatcher hands it on; without one it is written already dispatched. Kept by
 * the subscribing module (notifications: one row per type its enabled notifications want), read by the
 * outbox's INSERT through the primary key.
 */
export const eventSubscriptions = pgTable(
  'event_subscriptions',
  {
    accountId: uuid('account_id').notNull(),
    type: text('type').notNull(),
    subscriber: text('subscriber').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.type, t.subscriber] })],
);
