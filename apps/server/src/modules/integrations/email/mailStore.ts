import { and, desc, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { senderAllowed, type InboundMail } from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { inboundMails, integrations, type InboundMailAuthentication, type InboundMailRow } from '../../../platform/db/schema/index.js';
import { parseMailRecipient } from './emailAddress.js';

/** The account a mail is for, read from its address (docs/decisions.md, "Email addresses"). */
export interface MailTarget {
  accountId: string;
  token: string;
  domain: string;
  /** From the address; null for the bare token address. */
  digits: string | null;
  allowedSenders: string[];
  senderNumberId: string;
}

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** The connected account whose token the address carries; null for another domain, a bad form or an unknown token. */
export async function findMailTarget(q: Queryable, domain: string, address: string): Promise<MailTarget | null> {
  const parsed = parseMailRecipient(address, domain);
  if (parsed === null) return null;
  const [row] = await q
    .select({ accountId: integrations.accountId, properties: integrations.properties })
    .from(integrations)
    .where(and(eq(integrations.kind, 'email'), eq(integrations.status, 'connected'), sql`${integrations.connection}->>'token' = ${parsed.token}`))
    .limit(1);
  if (row === undefined) return null;
  const senderNumberId = row.properties.senderNumberId;
  return {
    accountId: row.accountId,
    token: parsed.token,
    domain,
    digits: parsed.digits,
    allowedSenders: stringsOf(row.properties.allowedSenders),
    senderNumberId: typeof senderNumberId === 'string' ? senderNumberId : '',
  };
}

export const senderOk = (target: MailTarget, address: string): boolean => senderAllowed(target.allowedSenders, address);

export interface MailRecord {
  accountId: string;
  via: 'smtp' | 'webhook';
  fromAddress: string;
  recipient: string;
  subject: string;
  messageId: string | null;
  references: string[];
  authentication: InboundMailAuthentication;
}

export async function recordMail(
  q: Queryable,
  mail: MailRecord,
  outcome: { status: 'sent'; text: string; mobile: string; contactId: string | null } | { status: 'refused'; reason: string; text?: string; mobile?: string },
): Promise<string> {
  const id = uuidv7();
  await q.insert(inboundMails).values({
    id,
    ...mail,
    status: outcome.status,
    text: outcome.text ?? '',
    mobile: outcome.mobile ?? null,
    reason: outcome.status === 'refused' ? outcome.reason : null,
    contactId: outcome.status === 'sent' ? outcome.contactId : null,
  });
  return id;
}

function presentMail(row: InboundMailRow): InboundMail {
  const a = row.authentication;
  return {
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    via: row.via,
    from: row.fromAddress,
    to: row.recipient,
    subject: row.subject,
    result: row.status,
    ...(row.reason === null ? {} : { reason: row.reason }),
    ...(row.mobile === null ? {} : { mobile: row.mobile }),
    authentication: {
      ...(a.spf === undefined ? {} : { spf: a.spf }),
      ...(a.dkim === undefined ? {} : { dkim: a.dkim }),
      ...(a.remoteAddress === undefined ? {} : { remoteAddress: a.remoteAddress }),
      ...(a.helo === undefined ? {} : { helo: a.helo }),
      ...(a.mailFrom === undefined ? {} : { mailFrom: a.mailFrom }),
    },
  };
}

/** The account's latest mails, newest first: the integration page's log. */
export async function latestMails(q: Queryable, accountId: string, limit = 50): Promise<InboundMail[]> {
  const rows = await q.select().from(inboundMails).where(eq(inboundMails.accountId, accountId)).orderBy(desc(inboundMails.id)).limit(limit);
  return rows.map(presentMail);
}
