import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { contacts } from './contacts.js';

/** What the receiving side recorded of a mail's origin (docs/integrations.md, "What is verified"). */
export interface InboundMailAuthentication {
  remoteAddress?: string;
  helo?: string;
  mailFrom?: string;
  /** The `Authentication-Results` and `Received-SPF` headers as they arrived, and the results read from them. */
  authenticationResults?: string[];
  receivedSpf?: string[];
  spf?: string;
  dkim?: string;
}

/**
 * Mail the Email integration received, sent on as SMS or refused (docs/integrations.md, "Email"). A sent
 * row is written in the transaction of its SMS, so a mail answered 250 is never lost; a row keeps what a
 * reply needs to thread back to the sender (its Message-ID, References and subject).
 */
export const inboundMails = pgTable(
  'inbound_mails',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    via: text('via', { enum: ['smtp', 'webhook'] }).notNull(),
    fromAddress: text('from_address').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    messageId: text('message_id'),
    references: jsonb('references').$type<string[]>().notNull().default([]),
    text: text('text').notNull().default(''),
    status: text('status', { enum: ['sent', 'refused'] }).notNull(),
    reason: text('reason'),
    mobile: text('mobile'),
    contactId: uuid('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    authentication: jsonb('authentication').$type<InboundMailAuthentication>().notNull().default({}),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inbound_mails_account_idx').on(t.accountId, t.receivedAt), index('inbound_mails_contact_idx').on(t.accountId, t.contactId, t.receivedAt)],
);

export type InboundMailRow = typeof inboundMails.$inferSelect;

/**
 * A contact's text to mail back to the sender of the mail that started the conversation: written by the
 * outbox subscriber in its round, mailed by the job `integrations.emailReplies` (never in the inbound path).
 */
export const inboundMailReplies = pgTable(
  'inbound_mail_replies',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    mailId: uuid('mail_id')
      .notNull()
      .references(() => inboundMails.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('inbound_mail_replies_event_idx').on(t.eventId), index('inbound_mail_replies_pending_idx').on(t.status, t.createdAt)],
);

export type InboundMailReplyRow = typeof inboundMailReplies.$inferSelect;
