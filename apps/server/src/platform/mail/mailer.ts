/** One outgoing e-mail. `text` is always sent; `html` is an optional alternative body. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Another From than MAIL_FROM (an Email integration reply comes from the account's address). */
  from?: string;
  /** Extra headers: a reply's In-Reply-To and References. */
  headers?: Readonly<Record<string, string>>;
}

export interface SentMail {
  /** The SMTP Message-ID, or the row id of the local mailbox. */
  id: string;
}

export type MailerKind = 'smtp' | 'mailbox';

/** Sends e-mail: through SMTP when configured, otherwise into the local mailbox table. */
export interface Mailer {
  readonly kind: MailerKind;
  send(message: MailMessage): Promise<SentMail>;
}

/** A message that could not be handed over; the message says to whom and why, never with credentials. */
export class MailDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailDeliveryError';
  }
}
