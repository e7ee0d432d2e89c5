import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { users } from './identity.js';
import { messages } from './messaging.js';

/**
 * An account's automatic answers to inbound messages (docs/autoResponders.md). `advanced` makes `match` a
 * regular expression run by a linear-time engine; otherwise it is a word or phrase matched whole and
 * case-insensitively. The oldest matching responder answers, once per inbound message.
 */
export const autoResponders = pgTable(
  'auto_responders',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    match: text('match').notNull(),
    response: text('response').notNull(),
    advanced: boolean('advanced').notNull().default(false),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auto_responders_account_idx').on(t.accountId, t.createdAt)],
);

export type AutoResponderRow = typeof autoResponders.$inferSelect;

export const mediaStorages = ['disk', 's3'] as const;
export const mediaSources = ['upload', 'inbound'] as const;

/**
 * A stored media file: an upload (tools/sharefile) or an inbound MMS attachment fetched from the carrier.
 * `key` names the object in its storage (a path under DATA_DIR/media, or an S3 object key). Served to the
 * account's users only; carriers get an expiring signed URL.
 */
export const mediaFiles = pgTable(
  'media_files',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    storage: text('storage', { enum: mediaStorages }).notNull(),
    key: text('key').notNull(),
    contentType: text('content_type').notNull(),
    filename: text('filename').notNull().default(''),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    source: text('source', { enum: mediaSources }).notNull(),
    /**
     * A message known to hold the file: the inbound message it came with, or for an upload the first one the
     * media sweep found sending it. Null once that message is removed: the sweep then looks again
     * (modules/media/unreferencedFiles.ts).
     */
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('media_files_size_not_negative', sql`${t.size} >= 0`),
    index('media_files_account_idx').on(t.accountId, t.createdAt),
    index('media_files_message_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
  ],
);

export type MediaFileRow = typeof mediaFiles.$inferSelect;

/**
 * The deployment's VAPID key pair for web push, made at first start and kept so that subscriptions stay
 * valid across restarts and processes. One row (id 1); the private key is encrypted with the secrets key.
 */
export const webPushKeys = pgTable(
  'web_push_keys',
  {
    id: smallint('id').primaryKey(),
    publicKey: text('public_key').notNull(),
    privateKeyEncrypted: text('private_key_encrypted').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('web_push_keys_single_row', sql`${t.id} = 1`)],
);

/** A browser of a user that asked for push notifications of an account (POST webpush/register). */
export const webPushSubscriptions = pgTable(
  'web_push_subscriptions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [
    uniqueIndex('web_push_subscriptions_endpoint_idx').on(t.accountId, t.endpoint),
    index('web_push_subscriptions_user_idx').on(t.userId),
  ],
);

export type WebPushSubscriptionRow = typeof webPushSubscriptions.$inferSelect;
