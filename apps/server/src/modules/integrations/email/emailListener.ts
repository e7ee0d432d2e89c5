import type { Logger } from 'pino';
import { startInboundSmtp, type InboundSmtpListener } from '../../../platform/mail/inboundSmtp.js';
import { checkRecipient, NO_SUCH_RECIPIENT, parseMail, receiveMail, type InboundMailDeps } from './inboundMail.js';

/** Mail larger than this is refused (552): an SMS is at most a few hundred characters. */
export const MAIL_SIZE_LIMIT = 1024 * 1024;
export const MAIL_TOO_LARGE = 'The mail is larger than 1 MB';

/** The SMTP listener of the Email integration, when INBOUND_SMTP_PORT is set (null otherwise). */
export async function startEmailListener(deps: InboundMailDeps, log: Logger): Promise<InboundSmtpListener | null> {
  const smtp = deps.config.inboundMail?.smtp ?? null;
  if (smtp === null) return null;
  const listener = await startInboundSmtp(
    { ...smtp, sizeLimit: MAIL_SIZE_LIMIT },
    {
      recipient: (address, session) => checkRecipient(deps, { via: 'smtp', recipient: address, mailFrom: session.mailFrom, remoteAddress: session.remoteAddress, helo: session.helo }),
      async message(stream, session, tooLarge) {
        const mail = await parseMail(stream);
        if (tooLarge()) return { ok: false, code: 552, message: MAIL_TOO_LARGE };
        const [recipient] = session.recipients;
        if (recipient === undefined) return { ok: false, code: 554, message: NO_SUCH_RECIPIENT };
        return receiveMail(deps, { via: 'smtp', recipient, mailFrom: session.mailFrom, remoteAddress: session.remoteAddress, helo: session.helo }, mail);
      },
    },
    log,
  );
  log.info({ port: listener.port, host: smtp.host }, 'inbound mail listening');
  return listener;
}
