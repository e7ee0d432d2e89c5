import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { callDirections, callSources, callStatuses } from '@parley/shared';
import { accounts } from './accounts.js';
import { contacts } from './contacts.js';
import { conversations, messages, phoneNumbers } from './messaging.js';

/**
 * A phone call in a contact's conversation (docs/calls.md), from a phone system's or call tracker's
 * webhook or sync. One row per call of a source: a later webhook of the same call (its external id) updates
 * it rather than adding a second.
 */
export const calls = pgTable(
  'calls',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** The account's number the call is filed under (the conversation's). */
    phoneNumberId: uuid('phone_number_id').references(() => phoneNumbers.id, { onDelete: 'set null' }),
    direction: text('direction', { enum: callDirections }).notNull(),
    status: text('status', { enum: callStatuses }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationSeconds: integer('duration_seconds').notNull().default(0),
    source: text('source', { enum: callSources }).notNull(),
    externalId: text('external_id').notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    recordingUrl: text('recording_url'),
    /** What the source tells about the call: tracking source, campaign, keywords ... */
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('calls_external_idx').on(t.accountId, t.source, t.externalId),
    index('calls_conversation_idx').on(t.accountId, t.conversationId, t.startedAt),
  ],
);

export type CallRow = typeof calls.$inferSelect;

export const textBackOutcomes = ['sent', 'refused'] as const;

/**
 * The missed-call text-backs: one row per call that asked for one. A caller gets one text-back per window
 * (the newest `sent` row of the account and caller decides), whatever the webhooks; the unique call id keeps
 * two deliveries of one call to one row.
 */
export const callTextBacks = pgTable(
  'call_text_backs',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    callId: uuid('call_id')
      .notNull()
      .references(() => calls.id, { onDelete: 'cascade' }),
    callerNumber: text('caller_number').notNull(),
    outcome: text('outcome', { enum: textBackOutcomes }).notNull(),
    reason: text('reason'),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('call_text_backs_call_idx').on(t.callId), index('call_text_backs_caller_idx').on(t.accountId, t.callerNumber, t.createdAt)],
);
