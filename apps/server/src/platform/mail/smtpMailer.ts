import { createTransport } from 'nodemailer';
import { MailDeliveryError, type Mailer, type MailMessage, type SentMail } from './mailer.js';

export interface SmtpMailerOptions {
  /** smtp:// or smtps:// URL, with credentials when the server needs them. */
  url: string;
  /** The From header, e.g. `Parley <no-reply@example.com>`. */
  from: string;
  /** Milliseconds to wait for the connection, the greeting and each reply; nodemailer waits minutes by default. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** host:port of an SMTP URL, for messages and logs (the URL itself may hold a password). */
export function smtpEndpoint(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587');
  return `${parsed.hostname}:${port}`;
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { response } = error as Error & { response?: unknown };
  return typeof response === 'string' && response !== '' ? response : error.message;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const endpoint = smtpEndpoint(options.url);
  const transport = createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    kind: 'smtp',
    async send(message: MailMessage): Promise<SentMail> {
      try {
        const info = await transport.sendMail({
          from: message.from ?? options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          ...(message.headers === undefined ? {} : { headers: { ...message.headers } }),
        });
        if (info.rejected.length > 0) {
          throw new Error(`the server rejected ${info.rejected.join(', ')}`);
        }
        return { id: info.messageId };
      } catch (error) {
        throw new MailDeliveryError(`Could not send e-mail to ${message.to} through SMTP ${endpoint}: ${reason(error)}`, {
          cause: error,
        });
      }
    },
  };
}
