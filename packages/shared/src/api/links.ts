import { z } from 'zod';
import { requiredText } from '../forms.js';
import { validationMessages } from '../validation.js';
import { listQuerySchema, listResponse, recordResponse } from './pagination.js';
import { MESSAGE_TEXT_MAX, MESSAGE_TEXT_MAX_MESSAGE } from './messages.js';

/**
 * Short links and custom domains (docs/links.md). A link has a short code of at least 7 base62
 * characters; its shortened URL is on a shared short domain of the deployment or on one of the
 * account's verified custom domains.
 */

export const LINKS_EMPTY_STATE = 'No Links Exist';
export const CUSTOM_DOMAINS_EMPTY_STATE = 'No Custom Domains Exist';
export const LINK_DIALOG_TITLE = 'Add A Link';
export const DOMAIN_URL_MESSAGE = 'Valid URL required';
export const DOMAIN_NOT_VERIFIED_MESSAGE = 'The domain is not verified: verify it before putting links on it';
export const DOMAIN_TAKEN_MESSAGE = 'This domain is already added';
export const DOMAIN_IN_USE_MESSAGE = 'Links use this domain: move or remove them first';
export const DOMAIN_VERIFIED_ELSEWHERE_MESSAGE = 'This domain is verified by another account';
export const domainVerifiedMessage = (domain: string): string => `${domain} has been verified`;
export const domainVerificationFailedMessage = (domain: string): string =>
  `Verification Failed for ${domain}. It may take time for DNS settings to update. Please try again later.`;
export const trackingDownloadFailedMessage = (message: string): string => `Unable to download contact tracking info - ${message}`;

/** A name lookup (the message editor's link picker) answers at most this many. */
/** GET .../links/{id}/tracking: one row per recipient's code (docs/links.md, "Contact tracking"). */
export const trackingCsvColumns = ['contact', 'number', 'message', 'first click', 'clicks'] as const;

export const LINK_LOOKUP_LIMIT = 10;
export const LINK_NAME_MAX = 200;
export const LINK_URL_MAX = 2000;
/** Short codes: base62, at least this long (62^7 is about 3.5 * 10^12 codes). */
export const SHORT_CODE_LENGTH = 7;
export const SHORT_CODE_PATTERN = /^[0-9A-Za-z]{7,32}$/;

const httpDestination = z
  .string({ message: validationMessages.required })
  .trim()
  .min(1, { message: validationMessages.required })
  .max(LINK_URL_MAX, { message: `At most ${LINK_URL_MAX} characters` })
  .refine((v) => {
    if (!/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v)) return false;
    try {
      const url = new URL(v);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, { message: validationMessages.url });

export const linkSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    destinationUrl: z.string(),
    shortenedUrl: z.string(),
    code: z.string(),
    domain: z.object({ id: z.uuid() }),
    contactTracking: z.boolean(),
    clicks: z.number().int().describe("people's clicks; link-preview fetchers are counted apart in botClicks"),
    botClicks: z.number().int(),
    created: z.object({ at: z.iso.datetime() }),
    updated: z.object({ at: z.iso.datetime() }),
  })
  .meta({ id: 'Link' });

export type Link = z.infer<typeof linkSchema>;
export const linkListSchema = listResponse(linkSchema).meta({ id: 'LinkList' });
export const linkRecordSchema = recordResponse(linkSchema).meta({ id: 'LinkRecord' });

/** GET .../links: `name` finds links whose name contains it (ignoring case), for the link picker. */
export const linkListQuerySchema = listQuerySchema.extend({
  name: z.string().trim().max(LINK_NAME_MAX).optional(),
});

/** POST .../links and PUT .../links/{id}: the whole link. The code is made by the server and kept. */
export const saveLinkSchema = z
  .object({
    name: requiredText(LINK_NAME_MAX),
    destinationUrl: httpDestination,
    domain: z.object({ id: z.uuid({ message: validationMessages.required }) }, { message: validationMessages.required }),
    contactTracking: z.boolean({ message: 'Use true or false' }).default(false),
  })
  .meta({ id: 'SaveLink' });

export type SaveLinkInput = z.input<typeof saveLinkSchema>;
export type SaveLink = z.output<typeof saveLinkSchema>;

export const customDomainSchema = z
  .object({
    id: z.uuid(),
    domain: z.string(),
    renewAt: z.iso.datetime().nullable().describe('verified while now is before renewAt; null: never verified'),
    shared: z.boolean().describe("one of the deployment's shared short domains"),
    records: z
      .array(z.object({ type: z.enum(['A', 'CNAME']), name: z.string(), value: z.string() }))
      .describe('the DNS records to create: A records for a root domain, a CNAME for a subdomain; none for a shared domain'),
  })
  .meta({ id: 'CustomDomain' });

export type CustomDomain = z.infer<typeof customDomainSchema>;
export const customDomainListSchema = listResponse(customDomainSchema).meta({ id: 'CustomDomainList' });
export const customDomainRecordSchema = recordResponse(customDomainSchema).meta({ id: 'CustomDomainRecord' });

export const customDomainListQuerySchema = listQuerySchema.extend({
  shared: z.enum(['0', '1']).optional().describe("1: the deployment's shared domains, which every account may use"),
});

/**
 * The spec's normalisation of a domain entry: a leading http:// or https:// and www. are stripped, as is
 * a trailing slash; lower case. Null when what is left is not a host name.
 */
export function normaliseDomain(entry: string): string | null {
  const stripped = entry
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '');
  return /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(stripped) ? stripped : null;
}

export const addCustomDomainSchema = z
  .object({
    domain: z
      .string({ message: validationMessages.required })
      .trim()
      .min(1, { message: validationMessages.required })
      .transform((v, ctx) => {
        const domain = normaliseDomain(v);
        if (domain === null) {
          ctx.addIssue({ code: 'custom', message: DOMAIN_URL_MESSAGE });
          return z.NEVER;
        }
        return domain;
      }),
  })
  .meta({ id: 'AddCustomDomain' });

/** PUT .../domains/verify: the domain to check (its id, or the name as added). */
export const verifyCustomDomainSchema = z
  .object({ id: z.uuid().optional(), domain: z.string().trim().optional() })
  .refine((v) => v.id !== undefined || v.domain !== undefined, { message: 'Name the domain: id or domain' })
  .meta({ id: 'VerifyCustomDomain' });

export const verifyResultSchema = z
  .object({ data: customDomainSchema, verified: z.boolean(), message: z.string() })
  .meta({ id: 'CustomDomainVerification' });

/** POST .../links/shorten: a message's text as auto link shortening would send it (the editor's preview). */
export const shortenTextSchema = z
  .object({ text: z.string({ message: validationMessages.required }).max(MESSAGE_TEXT_MAX, { message: MESSAGE_TEXT_MAX_MESSAGE }) })
  .meta({ id: 'ShortenText' });

export const shortenedTextSchema = z
  .object({
    text: z.string().describe('the text with its URLs replaced by short links; a link not made yet shows a code of x'),
    shortened: z.number().int().describe('the URLs replaced'),
  })
  .meta({ id: 'ShortenedText' });

export type ShortenedText = z.infer<typeof shortenedTextSchema>;
export const shortenedTextRecordSchema = recordResponse(shortenedTextSchema).meta({ id: 'ShortenedTextRecord' });
