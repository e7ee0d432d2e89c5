import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Logger } from 'pino';

/** What the receiving side knows of the connection and envelope (recorded with each mail). */
export interface InboundSession {
  remoteAddress: string;
  helo: string;
  mailFrom: string;
  recipients: string[];
}

/** An answer to RCPT or DATA: accepted, or refused with an SMTP code and a text the sender's server shows. */
export type SmtpAnswer = { ok: true } | { ok: false; code: number; message: string };

/** The domain side: who may be written to, and what becomes of an accepted message. */
export interface InboundSmtpHandlers {
  recipient(address: string, session: InboundSession): Promise<SmtpAnswer>;
  /** The message's bytes as they stream in; `tooLarge()` tells, once the stream ended, whether it was cut off. */
  message(stream: Readable, session: InboundSession, tooLarge: () => boolean): Promise<SmtpAnswer>;
}

export interface InboundSmtpOptions {
  port: number;
  host: string;
  /** STARTTLS is offered only with a certificate. */
  tls: { certFile: string; keyFile: string } | null;
  sizeLimit: number;
}

export interface InboundSmtpListener {
  port: number;
  close(): Promise<void>;
}

const sessionOf = (session: SMTPServerSession): InboundSession => ({
  remoteAddress: session.remoteAddress,
  helo: session.hostNameAppearsAs,
  mailFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
  recipients: session.envelope.rcptTo.map((r) => r.address),
});

const refusal = (code: number, message: string): Error & { responseCode: number } => Object.assign(new Error(message), { responseCode: code });

/**
 * The SMTP listener for mail Parley receives (no authentication: it is an MX). One recipient a transaction,
 * so each message has one account; the handlers decide the rest. An error of a handler answers 451 (try later).
 */
export async function startInboundSmtp(options: InboundSmtpOptions, handlers: InboundSmtpHandlers, log: Logger): Promise<InboundSmtpListener> {
  const answer = (promise: Promise<SmtpAnswer>, callback: (err?: Error | null) => void): void => {
    promise.then(
      (a) => {
        callback(a.ok ? null : refusal(a.code, a.message));
      },
      (error: unknown) => {
        log.error({ err: error }, 'inbound mail failed');
        callback(refusal(451, 'Temporary failure, try again later'));
      },
    );
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: options.tls === null ? ['AUTH', 'STARTTLS'] : ['AUTH'],
    ...(options.tls === null ? {} : { key: fs.readFileSync(options.tls.keyFile), cert: fs.readFileSync(options.tls.certFile) }),
    size: options.sizeLimit,
    banner: 'Parley inbound mail',
    logger: false,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length > 0) {
        callback(refusal(452, 'One recipient at a time: send the others again'));
        return;
      }
      answer(handlers.recipient(address.address, sessionOf(session)), callback);
    },
    onData(stream, session, callback) {
      answer(
        handlers.message(stream, sessionOf(session), () => stream.sizeExceeded),
        callback,
      );
    },
  });
  server.on('error', (error) => {
    log.warn({ err: error }, 'inbound mail connection error');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
