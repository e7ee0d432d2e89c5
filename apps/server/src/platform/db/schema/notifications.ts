import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
