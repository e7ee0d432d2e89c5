import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { NotificationEventType, NotificationFilters } from '@parley/shared';
import { accounts } from './accounts.js';
import { users } from './identity.js';

/**
 * Where an account's events go out (docs/notifications.md): an e-mail address or a webhook URL, the event
 * types it wants (kebab-case names) and what narrows them. A webhook's signing secret is AES-256-GCM
 * ciphertext (platform/secrets/cipher.ts, bound to the row's id), never the secret itself.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['email', 'webhook'] }).notNull(),
    destination: text('destination').notNull(),
    eventTypes: text('event_types').array().$type<NotificationEventType[]>().notNull().default(sql`'{}'::text[]`),
    filters: jsonb('filters').$type<NotificationFilters>().notNull().default({}),
    disabled: boolean('disabled').notNull().default(false),
    secret: text('secret'),
    /** The secret rotated out (sealed like `secret`), still signing beside it until previous_secret_until. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    /** Why Parley disabled it by itself: 'gone' (410) or 'failing' (5 days); null when a person did or it is enabled. */
    disabledReason: text('disabled_reason', { enum: ['gone', 'failing'] }),
    /** The first failure of the run of failures it is in; null once a delivery succeeds. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /**
     * A webhook's cursor in its account's `notification_events` (docs/notifications.md, "Deliveries"): every
     * event it wants up to this position has a delivery row (tried), so a sender reads on from here.
     */
    sentPosition: bigint('sent_position', { mode: 'number' }).notNull().default(0),
    /** The sender that reads this webhook's events, and until when (it renews while alive; another takes over after). */
    senderId: uuid('sender_id'),
    senderUntil: timestamp('sender_until', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notifications_destination_idx').on(t.accountId, t.type, t.destination),
    index('notifications_account_idx').on(t.accountId, t.createdAt),
    check('notifications_webhook_secret', sql`(${t.type} = 'webhook') = (${t.secret} is not null)`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;

/**
 * An event some of an account's webhooks want, once for all of them (docs/notifications.md, "Deliveries"):
 * written by the outbox's subscriber, read by each webhook's sender from its cursor (`sent_position`).
 * Positions of one account are written in commit order (the subscriber locks the account for its insert), so
 * a cursor never passes an event that becomes visible later. `notification_ids` are the webhooks that want it.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    position: bigint('position', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    notificationIds: uuid('notification_ids').array().notNull(),
    /** When the event happened: its deliveries' age (retries end 3 days after it). */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('notification_events_account_idx').on(t.accountId, t.position), uniqueIndex('notification_events_event_idx').on(t.accountId, t.eventId)],
);

/**
 * An event on its way to one notification (docs/notifications.md, "Deliveries"): made by the outbox's
 * subscriber in the dispatcher's transaction (unique per notification and event, so an event handed on
 * again makes none twice), sent and retried by the sender. `body` is the exact JSON signed and sent.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON sent; null on a webhook's delivery made by its first try, whose body is its event row's (`event_position`). */
    body: text('body'),
    /** The `notification_events` row it was read from (no foreign key: the prune keeps events longer than their deliveries). */
    eventPosition: bigint('event_position', { mode: 'number' }),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When it is due; while a sender holds it, when its hold ends (a sender that died lets it go again). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /**
     * Its latest try that decided (the delivery log's last try), kept on the row by the same write that
     * records its outcome; `notification_attempts` holds the tries before it and answers that came too late.
     * Most deliveries succeed at once and so write no attempt row (docs/notifications.md, "The delivery log").
     */
    lastAttempt: integer('last_attempt'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    lastResponseHead: text('last_response_head'),
  },
  (t) => [
    uniqueIndex('notification_deliveries_event_idx').on(t.notificationId, t.eventId),
    index('notification_deliveries_due_idx').on(t.notificationId, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('notification_deliveries_log_idx').on(t.notificationId, t.createdAt),
  ],
);

export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;

/** One try at a delivery: the delivery log's lines, but for its latest (on the delivery's row). */
export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    responseHead: text('response_head'),
  },
  (t) => [index('notification_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

export type NotificationAttemptRow = typeof notificationAttempts.$inferSelect;

/**
 * A user's own notification channel in an account (docs/notifications.md, "Channels"): e-mail to their
 * address, SMS to their mobile, or a Slack channel. `groups` chooses whose conversations it hears about
 * (empty: every one the user sees). Slack keeps its workspace, the chosen channel and the bot token, the
 * token sealed like carrier secrets (platform/secrets, bound to the row's id).
 */
export const notificationChannels = pgTable(
  'notification_channels',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms', 'slack'] }).notNull(),
    groups: jsonb('groups').$type<{ id: string; settings: Record<string, string | number | boolean> }[]>().notNull().default([]),
    slackTeamId: text('slack_team_id'),
    slackTeamName: text('slack_team_name'),
    slackBotUserId: text('slack_bot_user_id'),
    slackChannelId: text('slack_channel_id'),
    slackChannelName: text('slack_channel_name'),
    secret: text('secret'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notification_channels_user_idx').on(t.accountId, t.userId, t.channel),
    index('notification_channels_slack_idx').on(t.slackTeamId, t.slackChannelId),
  ],
);

export type NotificationChannelRow = typeof notificationChannels.$inferSelect;

/**
 * An inbound message on its way to one channel: written by the outbox subscriber in the dispatcher's round
 * (unique per channel and event), sent by the channel sender (an e-mail digest, a text, a Slack post). A
 * Slack post keeps its `ts`, so a reply in its thread finds the conversation.
 */
export const notificationChannelPosts = pgTable(
  'notification_channel_posts',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    /** What is said: `{contactName, contactNumber, text, at}`. */
    body: jsonb('body').$type<{ contactName: string; contactNumber: string; text: string; at: string }>().notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    error: text('error'),
    slackChannelId: text('slack_channel_id'),
    slackTs: text('slack_ts'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notification_channel_posts_event_idx').on(t.channelId, t.eventId),
    index('notification_channel_posts_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('notification_channel_posts_slack_idx').on(t.slackChannelId, t.slackTs),
  ],
);

export type NotificationChannelPostRow = typeof notificationChannelPosts.$inferSelect;

/** Slack events applied (by event_id), so a retried event is applied once. */
export const slackEventReceipts = pgTable('slack_event_receipts', {
  eventId: text('event_id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
