import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createLocalMailbox } from './localMailbox.js';
import type { Mailer } from './mailer.js';
import { createSmtpMailer } from './smtpMailer.js';

export type { Mailer, MailerKind, MailMessage, SentMail } from './mailer.js';
export { MailDeliveryError } from './mailer.js';

/** SMTP when SMTP_URL is set; otherwise the local mailbox in the database. */
export function createMailer(config: Config, database: Database): Mailer {
  return config.mail.smtpUrl === null
    ? createLocalMailbox(database.db)
    : createSmtpMailer({ url: config.mail.smtpUrl, from: config.mail.from });
}
