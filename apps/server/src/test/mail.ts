import type { Queryable } from '../platform/db/client.js';
import type { MailboxMessageRow } from '../platform/db/schema/index.js';
import { listMailboxMessages } from '../platform/mail/localMailbox.js';

/** The messages the local mailbox holds for one address, newest first. */
export function mailsTo(db: Queryable, to: string): Promise<MailboxMessageRow[]> {
  return listMailboxMessages(db, { limit: 50, to });
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: MailboxMessageRow | undefined, prefix: string): string {
  if (!mail) throw new Error('no mail');
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S*`).exec(mail.text);
  if (!match) throw new Error(`no link to ${prefix} in: ${mail.text}`);
  return match[0];
}

let addresses = 0;
/** A client address of its own for a request, so per-address rate limits of one test do not touch another's. */
export function clientAddress(): string {
  addresses += 1;
  return `10.${String((addresses >> 16) & 255)}.${String((addresses >> 8) & 255)}.${String(addresses & 255)}`;
}
