import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * Plans and their prices per segment by country (`DEFAULT` when a country has none). Money is exact:
 * numeric in the database, decimal strings in code.
 */
export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Monthly charge in USD. */
  price: numeric('price', { precision: 12, scale: 4 }).notNull(),
  isTrial: boolean('is_trial').notNull().default(false),
  /** Shown in the plan list (the free plan is not). */
  listed: boolean('listed').notNull().default(true),
  /** `{ [country | 'DEFAULT']: { sms: { outbound: '0.0079' }, mms?: { outbound: '0.0200' } } }` */
  pricing: jsonb('pricing').notNull(),
  maxConversationPeriodDays: integer('max_conversation_period_days'),
  sort: integer('sort').notNull().default(0),
});

export type PlanRow = typeof plans.$inferSelect;

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status', { enum: ['active', 'closed'] }).notNull().default('active'),
    planId: text('plan_id')
      .notNull()
      .references(() => plans.id),
    /** The cached sum of the ledger; changed only with a ledger entry, under a row lock. */
    balance: numeric('balance', { precision: 14, scale: 4 }).notNull().default('0'),
    defaultCountry: text('default_country').notNull().default('US'),
    /** `{ quantity, frequency: 'day' | 'week' | 'month' }` */
    messageFrequency: jsonb('message_frequency'),
    options: jsonb('options').notNull().default({}),
    support: jsonb('support').notNull(),
    questionnaire: jsonb('questionnaire').notNull(),
    promoCode: text('promo_code'),
    /** Acceptable hours in the recipient's local time ('HH:MM'); messages outside them wait (docs/messaging.md). */
    quietHoursEnabled: boolean('quiet_hours_enabled').notNull().default(true),
    quietHoursStart: text('quiet_hours_start').notNull().default('08:00'),
    quietHoursEnd: text('quiet_hours_end').notNull().default('21:00'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeFeedback: text('close_feedback'),
  },
  (t) => [check('accounts_balance_not_negative', sql`${t.balance} >= 0`)],
);

export type AccountRow = typeof accounts.$inferSelect;

export const accountMembers = pgTable(
  'account_members',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index('account_members_user_idx').on(t.userId)],
);

export type AccountMemberRow = typeof accountMembers.$inferSelect;

/** Invitations by e-mail; the invitee joins on sign-up or sign-in with that address. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role', { enum: ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('invitations_open_idx').on(t.accountId, t.email).where(sql`${t.acceptedAt} is null`),
    index('invitations_email_idx').on(t.email),
  ],
);

/**
 * The ledger. Amounts are positive; `kind` says which way they move the balance. A top-up's
 * idempotency key is unique per account, so a retried payment never credits twice.
 */
export const accountTransactions = pgTable(
  'account_transactions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['credit', 'debit', 'refund'] }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 4 }).notNull(),
    balanceAfter: numeric('balance_after', { precision: 14, scale: 4 }).notNull(),
    description: text('description').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('account_transactions_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('account_transactions_idempotency_idx')
      .on(t.accountId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    index('account_transactions_account_idx').on(t.accountId, t.createdAt),
  ],
);

/**
 * How many contacts, conversations and closed conversations each account has, kept exactly as signed deltas
 * written by statement-level triggers (migration 0020_row_count_triggers) and summed on read; a job folds
 * each account's deltas into one row a minute (platform/db/rowCounts.ts, docs/decisions.md). No foreign key:
 * a deleted account's rows write their negative deltas after it is gone, and the fold drops them.
 */
export const accountRowCounts = pgTable(
  'account_row_counts',
  {
    accountId: uuid('account_id').notNull(),
    kind: text('kind').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [index('account_row_counts_idx').on(t.accountId, t.kind)],
);
