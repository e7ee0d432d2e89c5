import { desc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../db/client.js';
import { isUuid } from '../db/ids.js';
import { mailboxMessages, type MailboxMessageRow } from '../db/schema/index.js';
import type { Mailer, MailMessage, SentMail } from './mailer.js';

/** Keeps outgoing e-mail in the `mailbox_messages` table instead of delivering it. */
export function createLocalMailbox(db: Queryable): Mailer {
  return {
    kind: 'mailbox',
    async send(message: MailMessage): Promise<SentMail> {
      const id = uuidv7();
      await db.insert(mailboxMessages).values({
        id,
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        sender: message.from ?? null,
        headers: message.headers === undefined ? null : { ...message.headers },
      });
      return { id };
    },
  };
}

/** The newest messages first, optionally only those to one recipient. */
export async function listMailboxMessages(
  db: Queryable,
  options: { limit: number; to?: string },
): Promise<MailboxMessageRow[]> {
  return db
    .select()
    .from(mailboxMessages)
    .where(options.to === undefined ? undefined : eq(mailboxMessages.recipient, options.to))
    .orderBy(desc(mailboxMessages.id))
    .limit(options.limit);
}

/** A kept message; null for an unknown id or a malformed one. */
export async function findMailboxMessage(db: Queryable, id: string): Promise<MailboxMessageRow | null> {
  if (!isUuid(id)) return null;
  const rows = await db.select().from(mailboxMessages).where(eq(mailboxMessages.id, id)).limit(1);
  return rows[0] ?? null;
}
