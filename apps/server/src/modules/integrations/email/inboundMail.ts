import type { Readable } from 'node:stream';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Config } from '../../../platform/config.js';
import type { Db } from '../../../platform/db/client.js';
import { AppError } from '../../../platform/errors.js';
import type { Mailer } from '../../../platform/mail/index.js';
import type { SmtpAnswer } from '../../../platform/mail/inboundSmtp.js';
import { sendMessagesIn } from '../../messaging/index.js';
import { digitsOfSubject } from './emailAddress.js';
import { smsTextOfMail } from './emailText.js';
import { mailBack, replySubject } from './mailBack.js';
import { recordAuthentication } from './mailAuthentication.js';
import { findMailTarget, recordMail, senderOk, type MailRecord, type MailTarget } from './mailStore.js';

export interface InboundMailDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
}

/** How a mail came in, as the receiving side saw it. */
export interface MailArrival {
  via: 'smtp' | 'webhook';
  recipient: string;
  mailFrom: string;
  remoteAddress?: string;
  helo?: string;
}

export const NO_SUCH_RECIPIENT = 'No such recipient here';
export const SENDER_NOT_ALLOWED = 'The sender is not allowed to write to this address';
export const NOTHING_TO_SEND = 'The mail has no text once quoted history and signatures are removed';
export const NO_NUMBER = 'Name the number to text: write to <number>.<token>@ the domain, or put the number in the subject';

const ok: SmtpAnswer = { ok: true };
const refused = (message: string): SmtpAnswer => ({ ok: false, code: 550, message });

/** Parses a message as it streams in (or from its bytes), without inlining images. */
export const parseMail = (source: Readable | Buffer): Promise<ParsedMail> => simpleParser(source, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true });

/** RCPT: an address of a connected account, from an allowed envelope sender (a refusal is recorded). */
export async function checkRecipient(deps: InboundMailDeps, arrival: MailArrival): Promise<SmtpAnswer> {
  const domain = deps.config.inboundMail?.domain;
  const target = domain === undefined ? null : await findMailTarget(deps.db, domain, arrival.recipient);
  if (target === null) return refused(NO_SUCH_RECIPIENT);
  if (senderOk(target, arrival.mailFrom)) return ok;
  await recordMail(deps.db, { ...baseRecord(target, arrival), fromAddress: arrival.mailFrom || '(none)' }, { status: 'refused', reason: SENDER_NOT_ALLOWED });
  return refused(SENDER_NOT_ALLOWED);
}

function baseRecord(target: MailTarget, arrival: MailArrival, mail?: ParsedMail): MailRecord {
  const references = mail?.references;
  return {
    accountId: target.accountId,
    via: arrival.via,
    fromAddress: mail?.from?.value[0]?.address ?? arrival.mailFrom,
    recipient: arrival.recipient.toLowerCase(),
    subject: (mail?.subject ?? '').slice(0, 500),
    messageId: mail?.messageId ?? null,
    references: references === undefined ? [] : typeof references === 'string' ? [references] : references.slice(-20),
    authentication: recordAuthentication(mail?.headerLines ?? [], arrival),
  };
}

/**
 * DATA (or the webhook door): the mail becomes an SMS to the number, sent as the account's own send is
 * (consent, quiet hours, balance). The row of the mail is written in the send's transaction, so a mail
 * answered 250 is never lost. A send refused for the contact (opted out, no credit ...) is recorded and
 * the sender is told by mail; refusals of the mail itself are SMTP refusals (550).
 */
export async function receiveMail(deps: InboundMailDeps, arrival: MailArrival, mail: ParsedMail): Promise<SmtpAnswer> {
  const domain = deps.config.inboundMail?.domain;
  const target = domain === undefined ? null : await findMailTarget(deps.db, domain, arrival.recipient);
  if (target === null) return refused(NO_SUCH_RECIPIENT);
  const record = baseRecord(target, arrival, mail);
  const refuse = async (reason: string, extra: { text?: string; mobile?: string } = {}): Promise<SmtpAnswer> => {
    await recordMail(deps.db, record, { status: 'refused', reason, ...extra });
    return refused(reason);
  };
  if (!senderOk(target, arrival.mailFrom) || !senderOk(target, record.fromAddress)) return refuse(SENDER_NOT_ALLOWED);
  const text = smsTextOfMail(mail);
  if (text === '') return refuse(NOTHING_TO_SEND);
  const digits = target.digits ?? digitsOfSubject(record.subject);
  if (digits === null) return refuse(NO_NUMBER, { text });
  const mobile = `+${digits}`;
  try {
    await deps.db.transaction(async (tx) => {
      const sent = await sendMessagesIn(tx, {
        accountId: target.accountId,
        actor: { kind: 'system' },
        contactsByMobile: [{ mobile: { number: mobile, country: undefined }, firstName: '', lastName: '' }],
        template: text,
        phoneNumberFilter: target.senderNumberId === '' ? null : { group: target.senderNumberId },
        chargeDescription: `Message to ${mobile} from e-mail`,
      });
      await recordMail(tx, record, { status: 'sent', text, mobile, contactId: sent.messages[0]?.contactId ?? null });
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await recordMail(deps.db, record, { status: 'refused', reason: error.message, text, mobile });
    await mailBack(deps.mailer, {
      to: record.fromAddress,
      subject: replySubject(record.subject),
      text: `Your message to ${mobile} was not sent: ${error.message}`,
      thread: record,
    });
  }
  return ok;
}
