import { z } from 'zod';

/**
 * The Email integration (docs/integrations.md, "Email"): mail to an account's address becomes an SMS, and
 * the contact's reply comes back as mail. Shared by the server and the integration's page.
 */

export const EMAIL_SENDER_ENTRY_MESSAGE = 'Enter an e-mail address or @domain';
export const EMAIL_INBOUND_OFF_MESSAGE = 'Inbound mail is not set up on this server (INBOUND_MAIL_DOMAIN)';
export const MAX_ALLOWED_SENDERS = 100;

const addressPattern = /^[^\s@<>()",;:]+@([a-z0-9-]+\.)+[a-z0-9-]{2,}$/;
const domainPattern = /^@([a-z0-9-]+\.)+[a-z0-9-]{2,}$/;

/** An allowed-senders entry: an address (`ops@acme.com`) or a whole domain (`@acme.com`); case does not count. */
export const isAllowedSenderEntry = (value: string): boolean => addressPattern.test(value) || domainPattern.test(value);

export const allowedSenderSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isAllowedSenderEntry, { message: EMAIL_SENDER_ENTRY_MESSAGE });

/** Whether an address is allowed by the entries (an exact address, or its domain as `@domain`). */
export function senderAllowed(entries: readonly string[], address: string): boolean {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = lower.slice(at);
  return entries.some((entry) => entry === lower || entry === domain);
}

export const emailConnectSchema = z.object({}).strict().meta({ id: 'EmailConnect' });

export const emailPropertiesSchema = z
  .object({
    /** Who may send: addresses or `@domain` entries; mail from others is refused. */
    allowedSenders: z.array(allowedSenderSchema).max(MAX_ALLOWED_SENDERS, { message: `At most ${String(MAX_ALLOWED_SENDERS)} entries` }),
    /** The account's number the texts go from ('': the account's usual choice of sender). */
    senderNumberId: z.union([z.literal(''), z.uuid()]),
  })
  .strict()
  .meta({ id: 'EmailProperties' });
export type EmailProperties = z.output<typeof emailPropertiesSchema>;

export const EMAIL_DEFAULT_PROPERTIES: EmailProperties = { allowedSenders: [], senderNumberId: '' };

export const inboundMailResults = ['sent', 'refused'] as const;
export type InboundMailResult = (typeof inboundMailResults)[number];

/** One mail the account's address received, as the page's log shows it. */
export const inboundMailSchema = z
  .object({
    id: z.uuid(),
    receivedAt: z.string(),
    via: z.enum(['smtp', 'webhook']),
    /** The header From (else the envelope sender). */
    from: z.string(),
    /** The envelope recipient: the account's address it came to. */
    to: z.string(),
    subject: z.string(),
    result: z.enum(inboundMailResults),
    reason: z.string().optional(),
    /** The mobile it was texted to, when it was. */
    mobile: z.string().optional(),
    /** What the receiving side recorded: the SPF and DKIM results as the headers say, the connection. */
    authentication: z.object({
      spf: z.string().optional(),
      dkim: z.string().optional(),
      remoteAddress: z.string().optional(),
      helo: z.string().optional(),
      mailFrom: z.string().optional(),
    }),
  })
  .meta({ id: 'InboundMail' });
export type InboundMail = z.infer<typeof inboundMailSchema>;

export const inboundMailListSchema = z.object({ data: z.array(inboundMailSchema) }).meta({ id: 'InboundMailList' });
