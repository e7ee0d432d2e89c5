import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { contacts } from './contacts.js';
import { users } from './identity.js';
import { messages } from './messaging.js';

/**
 * An account's own short-link domain (docs/links.md). Verified while now < renew_at: a DNS check that
 * finds the configured records sets renew_at; the daily re-check moves it on or lets it lapse.
 */
export const linkDomains = pgTable(
  'link_domains',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Lower case, without scheme, www. or path. */
    domain: text('domain').notNull(),
    renewAt: timestamp('renew_at', { withTimezone: true }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('link_domains_account_domain_idx').on(t.accountId, t.domain), index('link_domains_domain_idx').on(t.domain)],
);

export type LinkDomainRow = typeof linkDomains.$inferSelect;

/**
 * A short link. `code` is unique over every link and per-recipient code (a new code is checked against
 * both tables), so `/r/{code}` on the main host needs no domain; `domain_id` null means the deployment's shared short domain. Clicks are counted by
 * the redirect's batched writer (modules/links/clickBuffer.ts); clicks by link-preview fetchers go to
 * bot_clicks and are not a person's.
 */
export const links = pgTable(
  'links',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    destinationUrl: text('destination_url').notNull(),
    domainId: uuid('domain_id').references(() => linkDomains.id, { onDelete: 'restrict' }),
    code: text('code').notNull(),
    contactTracking: boolean('contact_tracking').notNull().default(false),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    botClicks: bigint('bot_clicks', { mode: 'number' }).notNull().default(0),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('links_code_idx').on(t.code),
    index('links_account_idx').on(t.accountId, t.createdAt),
    index('links_account_name_idx').on(t.accountId, sql`lower(${t.name})`),
  ],
);

export type LinkRow = typeof links.$inferSelect;

/**
 * A tracked link's own code for one recipient of one message (docs/links.md, "Contact tracking"): made at
 * send time in the sender's transaction, so a click is tied to the contact and the message. Its clicks
 * also count on the link; first_click_at is a person's first click (preview fetchers only in bot_clicks).
 */
export const linkRecipients = pgTable(
  'link_recipients',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    clicks: bigint('clicks', { mode: 'number' }).notNull().default(0),
    botClicks: bigint('bot_clicks', { mode: 'number' }).notNull().default(0),
    firstClickAt: timestamp('first_click_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('link_recipients_code_idx').on(t.code),
    index('link_recipients_link_idx').on(t.linkId, t.createdAt),
    index('link_recipients_message_idx').on(t.messageId),
    index('link_recipients_contact_idx').on(t.contactId),
  ],
);

export type LinkRecipientRow = typeof linkRecipients.$inferSelect;
