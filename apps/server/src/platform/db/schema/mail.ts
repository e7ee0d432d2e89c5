import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Outgoing e-mail kept by the local mailbox when no SMTP server is configured, so that verification
 * and reset links reach a newcomer without a mail server. Ids are UUIDv7: newest first is id order.
 */
export const mailboxMessages = pgTable('mailbox_messages', {
  id: uuid('id').primaryKey(),
  recipient: text('recipient').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  /** The From of a message sent as someone other than MAIL_FROM (an Email integration reply); null: MAIL_FROM. */
  sender: text('sender'),
  /** Threading headers (In-Reply-To, References) of a reply. */
  headers: jsonb('headers').$type<Record<string, string>>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type MailboxMessageRow = typeof mailboxMessages.$inferSelect;
