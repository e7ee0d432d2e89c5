import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { formatMoney, pageViewSinks } from '@parley/shared';
import type { CarrierName } from '../modules/carriers/index.js';
import { invalidAllowedHostEntries } from './net/allowedHosts.js';

export const serviceNames = ['web', 'worker', 'scheduler'] as const;
export type ServiceName = (typeof serviceNames)[number];

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = (max: number) =>
  z.coerce
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(max, { message: `must be at most ${max}` });

const servicesList = z
  .string()
  .transform((value, ctx) => {
    const names = value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
    const unknown = names.filter((n) => !(serviceNames as readonly string[]).includes(n));
    if (names.length === 0 || unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a comma-separated list of ${serviceNames.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}`,
      });
      return z.NEVER;
    }
    return [...new Set(names)] as ServiceName[];
  });

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), { message: 'must be a postgres:// or postgresql:// URL' });

const smtpUrl = z.string().refine(
  (v) => {
    if (!/^smtps?:\/\//i.test(v)) return false;
    try {
      return new URL(v).hostname !== '';
    } catch {
      return false;
    }
  },
  { message: 'must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@smtp.example.com' },
);

// `address@domain` or `Display Name <address@domain>`.
const mailFrom = z
  .string()
  .regex(/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, {
    message: 'must be an e-mail address, optionally with a name: Parley <no-reply@example.com>',
  });

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const jsonText = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });

/** One upstream OpenID Connect provider people may sign in with on the embedded issuer (social sign-in). */
const socialProviderSchema = z.strictObject({
  id: jsonText()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, { message: 'must be 1 to 32 lowercase letters, digits or hyphens (it is part of the callback URL)' }),
  name: jsonText().trim().min(1, { message: 'is required' }).max(40, { message: 'must be at most 40 characters' }),
  issuer: jsonText().refine(
    (v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
      } catch {
        return false;
      }
    },
    { message: 'must be an https URL (http only on localhost)' },
  ),
  clientId: jsonText().min(1, { message: 'is required' }),
  /** Omitted: a public client (PKCE only, no client authentication). */
  clientSecret: jsonText().min(1, { message: 'must not be empty' }).optional(),
  scopes: jsonText()
    .refine((v) => v.split(/\s+/).includes('openid'), { message: 'must include openid' })
    .default('openid email profile'),
});

export type SocialProviderConfig = z.infer<typeof socialProviderSchema>;

/** SOCIAL_PROVIDERS: a JSON array of providers, each message naming the entry and field at fault. */
const socialProvidersList = z.string().transform((value, ctx): SocialProviderConfig[] => {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    json = undefined;
  }
  if (!Array.isArray(json)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a JSON array such as [{"id":"google","name":"Google","issuer":"https://accounts.google.com","clientId":"...","clientSecret":"..."}]',
    });
    return z.NEVER;
  }
  const providers: SocialProviderConfig[] = [];
  json.forEach((entry: unknown, index) => {
    const parsed = socialProviderSchema.safeParse(entry);
    const id = typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string' ? (entry as { id: string }).id : '';
    const label = `entry ${String(index + 1)}${id === '' ? '' : ` (${id})`}`;
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
        const message = issue.code === 'unrecognized_keys' ? 'unknown (expected id, name, issuer, clientId, clientSecret, scopes)' : issue.message;
        ctx.addIssue({ code: 'custom', message: `${label}: ${field === '' ? 'must be an object' : `${field} ${message}`}` });
      }
      return;
    }
    if (providers.some((p) => p.id === parsed.data.id)) {
      ctx.addIssue({ code: 'custom', message: `${label}: id is used twice` });
      return;
    }
    providers.push(parsed.data);
  });
  return providers;
});

/** A comma-separated list of origins (scheme, host and port only), e.g. `https://sms.example.com`. */
const webOrigins = z.string().transform((value, ctx) => {
  const origins: string[] = [];
  for (const item of value.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    let origin: string | null = null;
    try {
      const url = new URL(item);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === item.replace(/\/+$/, '')) origin = url.origin;
    } catch {
      origin = null;
    }
    if (origin === null) {
      ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of origins such as https://sms.example.com (not: ${item})` });
      return z.NEVER;
    }
    origins.push(origin);
  }
  return [...new Set(origins)];
});

/** SMPP 3.4 C-Octet String limits (the terminating NUL excluded). */
export const SMPP_SYSTEM_ID_MAX = 15;
export const SMPP_PASSWORD_MAX = 8;
export const SMPP_SYSTEM_TYPE_MAX = 12;

const SMPP_URL_MESSAGE =
  'must be smpp://systemId:password@host:port or smpps://systemId:password@host:port (TLS); percent-encode special characters';

/** SMPP_URL: `smpp://systemId:password@host:port`, or `smpps://` for TLS. The port defaults to 2775 (3550 with TLS). */
const smppUrl = z.string().transform((value, ctx): SmppConnectionConfig => {
  let url: URL | null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'smpp:' && url.protocol !== 'smpps:') || url.hostname === '' || (url.pathname !== '' && url.pathname !== '/')) {
    ctx.addIssue({ code: 'custom', message: SMPP_URL_MESSAGE });
    return z.NEVER;
  }
  let systemId: string;
  let password: string;
  try {
    systemId = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    ctx.addIssue({ code: 'custom', message: SMPP_URL_MESSAGE });
    return z.NEVER;
  }
  const problems: string[] = [];
  if (systemId === '' || password === '') problems.push('must carry the system id and the password: smpp://systemId:password@host:port');
  if (systemId.length > SMPP_SYSTEM_ID_MAX) problems.push(`the system id must be at most ${SMPP_SYSTEM_ID_MAX} characters (SMPP 3.4)`);
  if (password.length > SMPP_PASSWORD_MAX) problems.push(`the password must be at most ${SMPP_PASSWORD_MAX} characters (SMPP 3.4)`);
  for (const message of problems) ctx.addIssue({ code: 'custom', message });
  if (problems.length > 0) return z.NEVER;
  const tls = url.protocol === 'smpps:';
  return {
    // URL keeps IPv6 literals in brackets; the socket wants the bare address.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (tls ? 3550 : 2775) : Number(url.port),
    systemId,
    password,
    tls,
    systemType: null,
  };
});

/** 32 bytes as 64 hex digits or base64 (standard or URL-safe, padding optional). */
export function decodeSecretsKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) return null;
  const key = Buffer.from(value.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return key.length === 32 ? key : null;
}

const secretsKey = z.string().transform((value, ctx) => {
  const key = decodeSecretsKey(value);
  if (key === null) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be 32 random bytes as 64 hexadecimal digits or base64 (e.g. the output of `openssl rand -base64 32`)',
    });
    return z.NEVER;
  }
  return key;
});

/** The VAPID subject push services may contact us at (RFC 8292): mailto: an address, or an https URL. */
const webPushSubject = z
  .string()
  .refine((v) => /^mailto:[^\s@]+@[^\s@]+$/.test(v) || /^https:\/\/[^\s/]+/.test(v), {
    message: 'must be mailto:you@example.com or an https:// URL where push services can reach the operator',
  });

/** What proxy-addr (Fastify's forwarded-header reader) knows by name. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address, bits, extra] = item.split('/');
  if (address === undefined || extra !== undefined) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  return prefix >= 0 && prefix <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which peers may tell the client's address, host and scheme in X-Forwarded-* headers. Off
 * by default: then the socket's own address counts, whatever the headers say (docs/security.md).
 */
const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === 'false' || trimmed === 'off' || trimmed === '0') return false;
  if (/^\d{1,2}$/.test(trimmed)) return Number(trimmed);
  const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const wrong = items.filter((item) => !isAddressOrRange(item));
  if (items.length === 0 || wrong.length > 0 || trimmed === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        'must list the reverse proxies in front of Parley as addresses or ranges (e.g. 127.0.0.1,10.0.0.0/8; or loopback, linklocal, uniquelocal), ' +
        `or give their number (e.g. 1); trusting every sender would let anyone choose their address${wrong.length > 0 ? ` (not an address or range: ${wrong.join(', ')})` : ''}`,
    });
    return z.NEVER;
  }
  return items;
});

/** FETCH_ALLOWED_HOSTS: host names, `*.` names, IP addresses and CIDR blocks, comma-separated (platform/net/allowedHosts.ts). */
const allowedHostsList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const invalid = invalidAllowedHostEntries(entries);
  if (invalid.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a comma-separated list of host names (*.example.com for every name below one), IP addresses and CIDR blocks such as 10.0.0.0/8 (not: ${invalid.join(', ')})`,
    });
    return z.NEVER;
  }
  return [...new Set(entries.map((e) => e.toLowerCase()))];
});

/** A DNS host name, lower case, no scheme or path (SHORT_LINK_DOMAIN, CUSTOM_DOMAIN_CNAME). */
const hostName = z
  .string()
  .transform((v) => v.toLowerCase())
  .refine((v) => /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(v), {
    message: 'must be a host name such as sho.rt (no scheme, port or path)',
  });

/** DNS_RESOLVER: the DNS server custom domains are checked through, as address or address:port. */
const resolverAddress = z.string().refine((v) => {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(v);
  return match !== null && net.isIP((match[1] ?? '').replace(/^\[|\]$/g, '')) !== 0 && (match[2] === undefined || Number(match[2]) <= 65535);
}, { message: 'must be a DNS server address such as 1.1.1.1 or 127.0.0.1:5353' });

/** CUSTOM_DOMAIN_A_RECORDS: the IPv4 addresses a root custom domain must point at. */
const ipv4List = z.string().transform((value, ctx) => {
  const items = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (items.length === 0 || items.some((i) => net.isIP(i) !== 4)) {
    ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of IPv4 addresses' });
    return z.NEVER;
  }
  return items;
});

const carrierChoice = z.enum(['simulator', 'smpp', 'twilio'], { message: 'must be simulator, smpp or twilio' });

/** Every environment variable the server reads, with its default. docs/configuration.md lists the same. */
/**
 * A Google endpoint: https, or http on a loopback host only (a local stand-in): Google's tokens never travel
 * in the clear (docs/decisions.md, "Google Calendar's client on the guarded fetcher").
 */
const googleUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  }, { message: 'must be an https URL (http only for a loopback host)' });

const envSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int({ message: 'must be a port number' })
    .min(0, { message: 'must be a port number between 0 and 65535' })
    .max(65535, { message: 'must be a port number between 0 and 65535' })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
  TRUST_PROXY: trustProxy.default(false),
  API_RATE_LIMIT: z.coerce.number({ message: 'must be a whole number' }).int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 (off) or more' }).max(1_000_000).default(3000),
  API_RATE_LIMIT_PER_ADDRESS: z.coerce.number({ message: 'must be a whole number' }).int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 (off) or more' }).max(1_000_000).default(6000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: positiveInt(500).default(10),
  DATABASE_PREPARED_STATEMENTS: booleanFlag.default(true),
  SERVICES: servicesList.default(['web', 'worker', 'scheduler']),
  WORKER_NICE: z.coerce
    .number({ message: 'must be a whole number from 0 to 19' })
    .int({ message: 'must be a whole number from 0 to 19' })
    .min(0, { message: 'must be a whole number from 0 to 19' })
    .max(19, { message: 'must be a whole number from 0 to 19' })
    .default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: positiveInt(600_000).default(30_000),
  DEV_AUTH: booleanFlag.default(false),
  PAGE_VIEWS_SINK: z.enum(pageViewSinks).default('off'),
  PAGE_VIEWS_URL: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
  HELP_CENTER_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  FEATURE_BOARD_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  FEATURE_BOARD_SECRET: z.string().min(32, { message: 'must be at least 32 characters (the HS256 key the external board checks tokens with)' }).optional(),
  EVENTS_RETENTION_DAYS: positiveInt(3650).default(7),
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).max(100).default(5),
  JOB_RETRY_DELAY_SECONDS: positiveInt(3600).default(5),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailFrom.default('Parley <no-reply@localhost>'),
  OIDC_ISSUER: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).default('parley-web'),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_EXTRA_WEB_ORIGINS: webOrigins.optional(),
  SOCIAL_PROVIDERS: socialProvidersList.optional(),
  // Twice the low-balance warning (LOW_BALANCE_WARNING), so a trial does not warn from its first text.
  TRIAL_CREDIT: z
    .string()
    .regex(/^\d{1,10}(\.\d{1,4})?$/, { message: 'must be an amount in USD with at most 4 decimals, e.g. 10.0000' })
    .default('10.0000'),
  SIMULATOR: booleanFlag.optional(),
  CARRIER: carrierChoice.optional(),
  SMPP_URL: smppUrl.optional(),
  SMPP_SYSTEM_TYPE: z.string().max(SMPP_SYSTEM_TYPE_MAX, { message: `must be at most ${SMPP_SYSTEM_TYPE_MAX} characters (SMPP 3.4)` }).optional(),
  SMPP_WINDOW: positiveInt(1000).default(10),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, { message: 'must be a Twilio Account SID: AC followed by 32 hexadecimal digits' })
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://api.twilio.com'),
  TWILIO_CALLER_ID: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, { message: 'must be a phone number in E.164 form, e.g. +14155550100' })
    .optional(),
  LOOKUP_PROVIDER: z.enum(['offline', 'twilio'], { message: 'must be offline or twilio' }).default('offline'),
  TWILIO_LOOKUP_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://lookups.twilio.com'),
  SECRETS_KEY: secretsKey.optional(),
  WEB_PUSH_SUBJECT: webPushSubject.optional(),
  MEDIA_S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name (3 to 63 lowercase letters, digits, dots or hyphens)' }).optional(),
  MEDIA_S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  MEDIA_S3_REGION: z.string().min(1).default('us-east-1'),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  MEDIA_S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  FETCH_ALLOWED_HOSTS: allowedHostsList.optional(),
  PAYMENTS_PROVIDER: z.enum(['sandbox', 'stripe'], { message: 'must be sandbox or stripe' }).optional(),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, { message: 'must be a Stripe secret or restricted key (sk_live_..., sk_test_..., rk_...)' }).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, { message: "must be the webhook endpoint's signing secret (whsec_...)" }).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]+$/, { message: 'must be a Stripe publishable key (pk_live_... or pk_test_...)' }).optional(),
  STRIPE_API_HOST: z.string().min(1).optional(),
  STRIPE_API_PORT: z.coerce.number({ message: 'must be a port number' }).int({ message: 'must be a port number' }).min(1, { message: 'must be a port number between 1 and 65535' }).max(65535, { message: 'must be a port number between 1 and 65535' }).optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https'], { message: 'must be http or https' }).optional(),
  ACTIVECAMPAIGN_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  CALLRAIL_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  HUBSPOT_CLIENT_ID: z.string().trim().min(1).optional(),
  HUBSPOT_CLIENT_SECRET: z.string().min(1).optional(),
  HUBSPOT_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  HUBSPOT_AUTH_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  PIPEDRIVE_CLIENT_ID: z.string().trim().min(1).optional(),
  PIPEDRIVE_CLIENT_SECRET: z.string().min(1).optional(),
  PIPEDRIVE_JWT_SECRET: z.string().min(16, { message: 'must be the app extension JWT secret (at least 16 characters)' }).optional(),
  PIPEDRIVE_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://api.pipedrive.com'),
  PIPEDRIVE_OAUTH_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://oauth.pipedrive.com'),
  INTERCOM_CLIENT_ID: z.string().trim().min(1).optional(),
  INTERCOM_CLIENT_SECRET: z.string().min(1).optional(),
  INTERCOM_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://api.intercom.io'),
  INTERCOM_OAUTH_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://app.intercom.com'),
  AIRCALL_CLIENT_ID: z.string().trim().min(1).optional(),
  AIRCALL_CLIENT_SECRET: z.string().min(1).optional(),
  AIRCALL_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://api.aircall.io'),
  AIRCALL_OAUTH_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://dashboard.aircall.io'),
  CRADLE_API_BASE_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).optional(),
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_CALENDAR_API_BASE_URL: googleUrl.default('https://www.googleapis.com'),
  GOOGLE_OAUTH_AUTH_URL: googleUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_TOKEN_URL: googleUrl.default('https://oauth2.googleapis.com/token'),
  GOOGLE_OAUTH_REVOKE_URL: googleUrl.default('https://oauth2.googleapis.com/revoke'),
  SLACK_CLIENT_ID: z.string().trim().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).optional(),
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_API_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://slack.com/api/'),
  SLACK_OAUTH_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' }).default('https://slack.com/oauth/v2/authorize'),
  SHORT_LINK_DOMAIN: hostName.optional(),
  DNS_RESOLVER: resolverAddress.optional(),
  CUSTOM_DOMAIN_A_RECORDS: ipv4List.default(['192.0.2.10', '192.0.2.11']),
  CUSTOM_DOMAIN_CNAME: hostName.optional(),
  INBOUND_MAIL_DOMAIN: hostName.optional(),
  INBOUND_SMTP_PORT: z.coerce.number({ message: 'must be a port number' }).int({ message: 'must be a port number' }).min(0, { message: 'must be a port number between 0 and 65535' }).max(65535, { message: 'must be a port number between 0 and 65535' }).optional(),
  INBOUND_SMTP_HOST: z.string().trim().min(1).default('0.0.0.0'),
  INBOUND_SMTP_TLS_CERT_FILE: z.string().min(1).optional(),
  INBOUND_SMTP_TLS_KEY_FILE: z.string().min(1).optional(),
  INBOUND_MAIL_WEBHOOK_SECRET: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
});

/**
 * The reverse proxies whose X-Forwarded-For, -Host and -Proto count: none (false), the addresses and
 * ranges listed, or a number of hops in front of this server.
 */
export type TrustProxy = false | number | readonly string[];

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  trustProxy: TrustProxy;
  /** Requests a minute the API allows a credential and a client address (0: no limit); platform/http/rateLimit.ts. */
  apiRateLimit: { perCredential: number; perAddress: number };
  dataDir: string;
  /** Unset: the embedded PGlite database in dataDir. */
  databaseUrl: string | null;
  databasePoolMax: number;
  /** Send the API's hottest statements as named prepared statements (platform/db/preparedStatements.ts). */
  databasePreparedStatements: boolean;
  services: readonly ServiceName[];
  /** The nice value a process running the worker role without the web role gives itself (0: left as it is). */
  workerNice: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  shutdownTimeoutMs: number;
  devAuth: boolean;
  pageViews: { sink: z.infer<typeof envSchema>['PAGE_VIEWS_SINK']; url: string | null };
  /** The help centre the account menu links to (HELP_CENTER_URL); null: no Help Centre entry. */
  helpCenterUrl: string | null;
  /** The feature-request board (docs/featureRequests.md). */
  featureBoard: FeatureBoardConfig;
  eventsRetentionDays: number;
  jobs: { retryLimit: number; retryDelaySeconds: number };
  /** smtpUrl unset: outgoing e-mail is kept in the local mailbox table. */
  mail: { smtpUrl: string | null; from: string };
  identity: IdentityConfig;
  /** What a new account is credited on its trial plan (USD, 4 decimals), and who takes payments (docs/billing.md). */
  billing: { trialCredit: string; payments: PaymentsConfig };
  carriers: CarriersConfig;
  secrets: SecretsConfig;
  /** subject: the VAPID subject of web pushes (WEB_PUSH_SUBJECT; docs/webPush.md). */
  webPush: { subject: string };
  /** Where uploaded and inbound media files are kept (docs/media.md). */
  media: MediaConfig;
  /** URLs the server fetches for others (carrier media, webhooks, integrations): platform/net/guardedFetch.ts. */
  fetch: FetchConfig;
  /** The Slack app users' notification channels go through (docs/notifications.md, "Slack"); null: not configured. */
  slack: SlackConfig | null;
  /** Number lookups (LOOKUP_PROVIDER). */
  lookups: LookupsConfig;
  /** Integrations (docs/integrations.md). */
  integrations: IntegrationsConfig;
  links: LinksConfig;
  /** Mail Parley receives for the Email integration (docs/integrations.md, "Email"); null: off. */
  inboundMail: InboundMailConfig | null;
  version: string;
}

export interface FeatureBoardConfig {
  /** FEATURE_BOARD_URL: an external board the page embeds with the sign-on token; null: the built-in board. */
  url: string | null;
  /** FEATURE_BOARD_SECRET: the HS256 key of the sign-on token; null: a key derived from the secrets key. */
  secret: string | null;
}

export interface InboundMailConfig {
  /** INBOUND_MAIL_DOMAIN: the domain of the accounts' addresses (its MX points at this host). */
  domain: string;
  /** INBOUND_SMTP_PORT/HOST: where the SMTP listener listens; null: no listener (the webhook door only). */
  smtp: { port: number; host: string; tls: { certFile: string; keyFile: string } | null } | null;
  /** INBOUND_MAIL_WEBHOOK_SECRET: the HMAC key of POST /v1/integrations/email/inbound; null: that door is closed. */
  webhookSecret: string | null;
}

/** The payment provider: the embedded sandbox (the default) or Stripe (PAYMENTS_PROVIDER, STRIPE_*). */
export type PaymentsConfig =
  | { provider: 'sandbox' }
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** The key Stripe.js runs with in the browser (STRIPE_PUBLISHABLE_KEY); public by design. */
      publishableKey: string;
      /** Another API host than Stripe's (STRIPE_API_HOST/PORT/PROTOCOL): a local peer or a proxy. */
      api: { host: string; port: number; protocol: 'http' | 'https' } | null;
    };

export interface IntegrationsConfig {
  /**
   * ACTIVECAMPAIGN_API_BASE_URL: the origin every account's ActiveCampaign calls go to instead of the API URL
   * the account gave (tests, and private deployments behind a relay); the operator's choice, so the guarded
   * fetcher lets its host through. Null: each account's own API URL.
   */
  activeCampaignApiBaseUrl: string | null;
  /** CALLRAIL_API_BASE_URL: CallRail's API origin (a local peer in tests), no trailing slash; https://api.callrail.com by default. */
  callRailApiBaseUrl: string;
  hubspot: HubSpotConfig;
  pipedrive: PipedriveConfig;
  intercom: IntercomConfig;
  aircall: AirCallConfig;
  /** CRADLE_API_BASE_URL: Cradle's API origin (docs/integrations.md, "Cradle"); null: not configured, Connect is refused. */
  cradleApiBaseUrl: string | null;
  googleCalendar: GoogleCalendarConfig;
}

/** AirCall (docs/integrations.md, "AirCall"). */
export interface AirCallConfig {
  /** The AirCall app's client (AIRCALL_CLIENT_ID and _SECRET); null: not registered, Connect is refused. */
  app: { clientId: string; clientSecret: string } | null;
  /** AIRCALL_API_BASE_URL: the public API (/v1/...) and its token endpoint (/v1/oauth/token). */
  apiBaseUrl: string;
  /** AIRCALL_OAUTH_BASE_URL: where the authorize page (/oauth/authorize) is. */
  oauthBaseUrl: string;
}

/** Google Calendar (docs/integrations.md, "Google Calendar"). */
export interface GoogleCalendarConfig {
  /** The Google Cloud OAuth client (GOOGLE_CLIENT_ID and _SECRET); null: not registered, Connect is refused. */
  app: { clientId: string; clientSecret: string } | null;
  /** GOOGLE_CALENDAR_API_BASE_URL: the Calendar API's root (the client library's rootUrl), no trailing slash. */
  apiBaseUrl: string;
  /** GOOGLE_OAUTH_AUTH_URL, GOOGLE_OAUTH_TOKEN_URL, GOOGLE_OAUTH_REVOKE_URL: Google's OAuth endpoints. */
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
}

/** The operator's HubSpot app (HUBSPOT_*; docs/integrations-hubspot.md). */
export interface HubSpotConfig {
  /** HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET; null when the app is not registered (HubSpot cannot connect). */
  app: { clientId: string; clientSecret: string } | null;
  /** HUBSPOT_API_BASE_URL: HubSpot's API origin (a local peer in tests), no trailing slash. */
  apiBaseUrl: string;
  /** HUBSPOT_AUTH_URL: HubSpot's authorize page. */
  authUrl: string;
}

/** Pipedrive (docs/integrations.md, "Pipedrive"). */
export interface PipedriveConfig {
  /** The Marketplace app's client (PIPEDRIVE_CLIENT_ID and _SECRET); null: not registered, Connect is refused. */
  app: { clientId: string; clientSecret: string } | null;
  /** The app extension's JWT secret (PIPEDRIVE_JWT_SECRET); null: its action link is refused. */
  jwtSecret: string | null;
  /** PIPEDRIVE_API_BASE_URL: a company's api_domain is used only under this base's host. */
  apiBaseUrl: string;
  /** PIPEDRIVE_OAUTH_BASE_URL: where /oauth/authorize and /oauth/token are. */
  oauthBaseUrl: string;
}

/** Intercom (docs/integrations.md, "Intercom"). */
export interface IntercomConfig {
  /** The Developer Hub app's client (INTERCOM_CLIENT_ID and _SECRET); null: not registered, Connect is refused and webhooks too. */
  app: { clientId: string; clientSecret: string } | null;
  /** INTERCOM_API_BASE_URL: the REST API and the token endpoint (/auth/eagle/token). */
  apiBaseUrl: string;
  /** INTERCOM_OAUTH_BASE_URL: where the authorize page (/oauth) is. */
  oauthBaseUrl: string;
}

export interface SlackConfig {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  /** Slack's Web API (SLACK_API_URL): the base every method is called under. */
  apiUrl: string;
  /** Where a user is sent to add the app (SLACK_OAUTH_URL). */
  oauthUrl: string;
}

/** Short links and custom domains (docs/links.md). */
export interface LinksConfig {
  /** The deployment's shared short domain (SHORT_LINK_DOMAIN); null: links are {publicUrl}/r/{code}. */
  shortDomain: string | null;
  /** The DNS server custom domains are checked through (DNS_RESOLVER); null: the system's. */
  resolver: string | null;
  /** What a root custom domain's A records must hold (CUSTOM_DOMAIN_A_RECORDS). */
  aRecords: readonly string[];
  /** What a subdomain's CNAME must name (CUSTOM_DOMAIN_CNAME; default the short domain, else the public host). */
  cname: string;
}

export interface FetchConfig {
  /**
   * Hosts that may be fetched although they are not public addresses (FETCH_ALLOWED_HOSTS): host names,
   * `*.` names, IP addresses and CIDR blocks, lower case. Empty: public addresses only.
   */
  allowedHosts: readonly string[];
}

/** Media storage: a directory under DATA_DIR (the default), or an S3-compatible bucket (MEDIA_S3_*). */
export type MediaStorageConfig =
  | { kind: 'disk'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Null: AWS itself; else an S3-compatible service (MinIO, R2 ...). */
      endpoint: string | null;
      region: string;
      /** Null: the AWS SDK's default credential chain (environment, instance role ...). */
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
      forcePathStyle: boolean;
    };

export interface MediaConfig {
  storage: MediaStorageConfig;
}

/** The deployment's SMPP connection (SMPP_URL, SMPP_SYSTEM_TYPE). */
export interface SmppConnectionConfig {
  host: string;
  port: number;
  systemId: string;
  password: string;
  tls: boolean;
  systemType: string | null;
}

/** The deployment's Twilio account (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_CALLER_ID). */
export interface TwilioConnectionConfig {
  accountSid: string;
  authToken: string;
  /** The number verification calls come from; null: the number being verified asks for its own. */
  callerId: string | null;
}

export interface CarriersConfig {
  /** The embedded simulated carrier with virtual phones (SIMULATOR). */
  simulator: boolean;
  /** What new numbers are bought from (CARRIER); null when the deployment configures no carrier at all. */
  defaultCarrier: CarrierName | null;
  smpp: SmppConnectionConfig | null;
  /** Outstanding submits per SMPP connection, the deployment's and accounts' own (SMPP_WINDOW). */
  smppWindow: number;
  twilio: TwilioConnectionConfig | null;
  /** Twilio's REST API, for the deployment's account and accounts' own (TWILIO_API_BASE_URL). */
  twilioApiBaseUrl: string;
}

/** Who answers number lookups (LOOKUP_PROVIDER, docs/tools.md): libphonenumber's ranges, or Twilio Lookup v2. */
export type LookupsConfig =
  | { provider: 'offline' }
  | { provider: 'twilio'; baseUrl: string; accountSid: string; authToken: string };

/** The key carrier secrets are encrypted with (platform/secrets/keyring.ts reads it). */
export interface SecretsConfig {
  /** SECRETS_KEY, decoded. */
  key: Buffer | null;
  /**
   * Without SECRETS_KEY on the embedded database: the file a key is generated into on first use and read
   * from after (DATA_DIR/secrets.key). Null on PostgreSQL: several processes must share one key.
   */
  keyFile: string | null;
}

export interface IdentityConfig {
  /** The OpenID Connect issuer whose tokens the API accepts. */
  issuer: string;
  /** True when the issuer is the one this server embeds under /oidc (OIDC_ISSUER unset). */
  embedded: boolean;
  /** The client id the web app signs in with. */
  clientId: string;
  /** The `aud` the API requires in access tokens. */
  audience: string;
  /** The scopes the web app asks for. */
  scopes: string;
  /** Upstream providers offered on the embedded issuer's sign-in page (SOCIAL_PROVIDERS); empty with an external issuer. */
  socialProviders: readonly SocialProviderConfig[];
  /**
   * Origins of other Parley web apps that sign in with the embedded issuer's web client (their
   * /callback, /silent-renew and /logout): a Parley whose OIDC_ISSUER names this one (OIDC_EXTRA_WEB_ORIGINS).
   */
  extraWebOrigins: readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `--services=web,worker` (or `--services web,worker`) on the command line wins over SERVICES. */
export function servicesFromArgv(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === undefined) continue;
    if (arg.startsWith('--services=')) return arg.slice('--services='.length);
    if (arg === '--services') return argv[i + 1] ?? '';
  }
  return undefined;
}

/** Parses the environment once. Empty strings count as unset, as in most .env tooling. */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
  cwd: string = process.cwd(),
  version = '0.0.0',
): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') input[key] = value.trim();
  }
  const cliServices = servicesFromArgv(argv);
  if (cliServices !== undefined) input.SERVICES = cliServices;

  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const label = name === 'SERVICES' && cliServices !== undefined ? '--services' : name;
        return `${label}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  if (e.PAGE_VIEWS_SINK === 'beacon' && e.PAGE_VIEWS_URL === undefined) {
    throw new ConfigError(['PAGE_VIEWS_URL: is required when PAGE_VIEWS_SINK is beacon']);
  }
  if (e.SOCIAL_PROVIDERS !== undefined && e.SOCIAL_PROVIDERS.length > 0 && e.OIDC_ISSUER !== undefined) {
    throw new ConfigError(['SOCIAL_PROVIDERS: applies to the embedded issuer only; with OIDC_ISSUER set, configure social sign-in at that issuer']);
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const carriers = carriersConfig(e);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    trustProxy: e.TRUST_PROXY,
    apiRateLimit: { perCredential: e.API_RATE_LIMIT, perAddress: e.API_RATE_LIMIT_PER_ADDRESS },
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    services: e.SERVICES,
    workerNice: e.WORKER_NICE,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    devAuth: e.DEV_AUTH,
    pageViews: { sink: e.PAGE_VIEWS_SINK, url: e.PAGE_VIEWS_URL ?? null },
    helpCenterUrl: e.HELP_CENTER_URL ?? null,
    featureBoard: featureBoardConfig(e),
    eventsRetentionDays: e.EVENTS_RETENTION_DAYS,
    jobs: { retryLimit: e.JOB_RETRY_LIMIT, retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS },
    mail: { smtpUrl: e.SMTP_URL ?? null, from: e.MAIL_FROM },
    identity: {
      // Kept exactly as given: some issuers (Auth0) put a trailing slash in their `iss`.
      issuer: e.OIDC_ISSUER ?? `${publicUrl}/oidc`,
      embedded: e.OIDC_ISSUER === undefined,
      clientId: e.OIDC_CLIENT_ID,
      audience: e.OIDC_AUDIENCE ?? `${publicUrl}/v1`,
      scopes: 'openid profile email offline_access',
      socialProviders: e.SOCIAL_PROVIDERS ?? [],
      extraWebOrigins: e.OIDC_EXTRA_WEB_ORIGINS ?? [],
    },
    billing: { trialCredit: formatMoney(e.TRIAL_CREDIT), payments: paymentsConfig(e) },
    carriers,
    secrets: {
      key: e.SECRETS_KEY ?? null,
      keyFile: e.SECRETS_KEY === undefined && e.DATABASE_URL === undefined ? path.join(dataDir, 'secrets.key') : null,
    },
    // Push services want a way to reach the operator: the site when it is public (https), else the mail sender.
    webPush: { subject: e.WEB_PUSH_SUBJECT ?? (publicUrl.startsWith('https://') ? publicUrl : `mailto:${/<([^>]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM}`) },
    media: { storage: mediaStorageConfig(e, dataDir) },
    fetch: { allowedHosts: e.FETCH_ALLOWED_HOSTS ?? [] },
    slack: slackConfig(e),
    lookups: lookupsConfig(e, carriers),
    integrations: {
      activeCampaignApiBaseUrl: e.ACTIVECAMPAIGN_API_BASE_URL?.replace(/\/+$/, '') ?? null,
      callRailApiBaseUrl: (e.CALLRAIL_API_BASE_URL ?? 'https://api.callrail.com').replace(/\/+$/, ''),
      hubspot: hubspotConfig(e),
      pipedrive: pipedriveConfig(e),
      intercom: intercomConfig(e),
      aircall: aircallConfig(e),
      cradleApiBaseUrl: e.CRADLE_API_BASE_URL?.replace(/\/+$/, '') ?? null,
      googleCalendar: googleCalendarConfig(e),
    },
    links: {
      shortDomain: e.SHORT_LINK_DOMAIN ?? null,
      resolver: e.DNS_RESOLVER ?? null,
      aRecords: e.CUSTOM_DOMAIN_A_RECORDS,
      cname: e.CUSTOM_DOMAIN_CNAME ?? e.SHORT_LINK_DOMAIN ?? new URL(publicUrl).hostname,
    },
    inboundMail: inboundMailConfig(e),
    version,
  };
}

type Env = z.infer<typeof envSchema>;

/** An external board checks the sign-on token with the secret it shares with this deployment. */
function featureBoardConfig(e: Env): FeatureBoardConfig {
  if (e.FEATURE_BOARD_URL !== undefined && e.FEATURE_BOARD_SECRET === undefined) {
    throw new ConfigError(['FEATURE_BOARD_SECRET: is required when FEATURE_BOARD_URL is set (the external board checks the sign-on token with it)']);
  }
  return { url: e.FEATURE_BOARD_URL ?? null, secret: e.FEATURE_BOARD_SECRET ?? null };
}

/** Pipedrive's app: its client id and secret come together or not at all. */
function pipedriveConfig(e: Env): PipedriveConfig {
  const { PIPEDRIVE_CLIENT_ID: clientId, PIPEDRIVE_CLIENT_SECRET: clientSecret } = e;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError([
      clientId === undefined
        ? 'PIPEDRIVE_CLIENT_ID: is required when PIPEDRIVE_CLIENT_SECRET is set (set both or neither)'
        : 'PIPEDRIVE_CLIENT_SECRET: is required when PIPEDRIVE_CLIENT_ID is set (set both or neither)',
    ]);
  }
  return {
    app: clientId === undefined || clientSecret === undefined ? null : { clientId, clientSecret },
    jwtSecret: e.PIPEDRIVE_JWT_SECRET ?? null,
    apiBaseUrl: e.PIPEDRIVE_API_BASE_URL.replace(/\/+$/, ''),
    oauthBaseUrl: e.PIPEDRIVE_OAUTH_BASE_URL.replace(/\/+$/, ''),
  };
}

/** AirCall's app: its client id and secret come together or not at all. */
function aircallConfig(e: Env): AirCallConfig {
  const { AIRCALL_CLIENT_ID: clientId, AIRCALL_CLIENT_SECRET: clientSecret } = e;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError([
      clientId === undefined
        ? 'AIRCALL_CLIENT_ID: is required when AIRCALL_CLIENT_SECRET is set (set both or neither)'
        : 'AIRCALL_CLIENT_SECRET: is required when AIRCALL_CLIENT_ID is set (set both or neither)',
    ]);
  }
  return {
    app: clientId === undefined || clientSecret === undefined ? null : { clientId, clientSecret },
    apiBaseUrl: e.AIRCALL_API_BASE_URL.replace(/\/+$/, ''),
    oauthBaseUrl: e.AIRCALL_OAUTH_BASE_URL.replace(/\/+$/, ''),
  };
}

/** Intercom's app: its client id and secret come together or not at all. */
function intercomConfig(e: Env): IntercomConfig {
  const { INTERCOM_CLIENT_ID: clientId, INTERCOM_CLIENT_SECRET: clientSecret } = e;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError([
      clientId === undefined
        ? 'INTERCOM_CLIENT_ID: is required when INTERCOM_CLIENT_SECRET is set (set both or neither)'
        : 'INTERCOM_CLIENT_SECRET: is required when INTERCOM_CLIENT_ID is set (set both or neither)',
    ]);
  }
  return {
    app: clientId === undefined || clientSecret === undefined ? null : { clientId, clientSecret },
    apiBaseUrl: e.INTERCOM_API_BASE_URL.replace(/\/+$/, ''),
    oauthBaseUrl: e.INTERCOM_OAUTH_BASE_URL.replace(/\/+$/, ''),
  };
}

/** Google's OAuth client: its id and secret come together or not at all. */
function googleCalendarConfig(e: Env): GoogleCalendarConfig {
  const { GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret } = e;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError([
      clientId === undefined
        ? 'GOOGLE_CLIENT_ID: is required when GOOGLE_CLIENT_SECRET is set (set both or neither)'
        : 'GOOGLE_CLIENT_SECRET: is required when GOOGLE_CLIENT_ID is set (set both or neither)',
    ]);
  }
  return {
    app: clientId === undefined || clientSecret === undefined ? null : { clientId, clientSecret },
    apiBaseUrl: e.GOOGLE_CALENDAR_API_BASE_URL.replace(/\/+$/, ''),
    authUrl: e.GOOGLE_OAUTH_AUTH_URL,
    tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
    revokeUrl: e.GOOGLE_OAUTH_REVOKE_URL,
  };
}

/** INBOUND_MAIL_DOMAIN turns inbound mail on; the listener's settings apply only with it. */
function inboundMailConfig(e: Env): InboundMailConfig | null {
  const certFile = e.INBOUND_SMTP_TLS_CERT_FILE;
  const keyFile = e.INBOUND_SMTP_TLS_KEY_FILE;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError(['INBOUND_SMTP_TLS_CERT_FILE: the certificate and INBOUND_SMTP_TLS_KEY_FILE go together']);
  }
  if (e.INBOUND_MAIL_DOMAIN === undefined) {
    const stray = (['INBOUND_SMTP_PORT', 'INBOUND_MAIL_WEBHOOK_SECRET', 'INBOUND_SMTP_TLS_CERT_FILE'] as const).filter((name) => e[name] !== undefined);
    if (stray.length > 0) throw new ConfigError(stray.map((name) => `${name}: applies only with INBOUND_MAIL_DOMAIN`));
    return null;
  }
  const tls = certFile === undefined || keyFile === undefined ? null : { certFile, keyFile };
  return {
    domain: e.INBOUND_MAIL_DOMAIN,
    smtp: e.INBOUND_SMTP_PORT === undefined ? null : { port: e.INBOUND_SMTP_PORT, host: e.INBOUND_SMTP_HOST, tls },
    webhookSecret: e.INBOUND_MAIL_WEBHOOK_SECRET ?? null,
  };
}

/** HubSpot's app: both of its id and secret, or neither. */
function hubspotConfig(e: Env): HubSpotConfig {
  if ((e.HUBSPOT_CLIENT_ID === undefined) !== (e.HUBSPOT_CLIENT_SECRET === undefined)) {
    throw new ConfigError([
      e.HUBSPOT_CLIENT_ID === undefined
        ? 'HUBSPOT_CLIENT_ID: is required when HUBSPOT_CLIENT_SECRET is set (set both or neither)'
        : 'HUBSPOT_CLIENT_SECRET: is required when HUBSPOT_CLIENT_ID is set (set both or neither)',
    ]);
  }
  return {
    app: e.HUBSPOT_CLIENT_ID !== undefined && e.HUBSPOT_CLIENT_SECRET !== undefined ? { clientId: e.HUBSPOT_CLIENT_ID, clientSecret: e.HUBSPOT_CLIENT_SECRET } : null,
    apiBaseUrl: (e.HUBSPOT_API_BASE_URL ?? 'https://api.hubapi.com').replace(/\/+$/, ''),
    authUrl: e.HUBSPOT_AUTH_URL ?? 'https://app.hubspot.com/oauth/authorize',
  };
}

/** SLACK_CLIENT_ID turns Slack on; its secret and the signing secret must come with it. */
function slackConfig(e: Env): SlackConfig | null {
  if (e.SLACK_CLIENT_ID === undefined) {
    const stray = (['SLACK_CLIENT_SECRET', 'SLACK_SIGNING_SECRET'] as const).filter((name) => e[name] !== undefined);
    if (stray.length > 0) throw new ConfigError(stray.map((name) => `${name}: applies only with SLACK_CLIENT_ID`));
    return null;
  }
  const missing = (['SLACK_CLIENT_SECRET', 'SLACK_SIGNING_SECRET'] as const).filter((name) => e[name] === undefined);
  if (missing.length > 0 || e.SLACK_CLIENT_SECRET === undefined || e.SLACK_SIGNING_SECRET === undefined) {
    throw new ConfigError(missing.map((name) => `${name}: is required with SLACK_CLIENT_ID`));
  }
  return {
    clientId: e.SLACK_CLIENT_ID,
    clientSecret: e.SLACK_CLIENT_SECRET,
    signingSecret: e.SLACK_SIGNING_SECRET,
    apiUrl: e.SLACK_API_URL,
    oauthUrl: e.SLACK_OAUTH_URL,
  };
}

/** LOOKUP_PROVIDER=twilio asks the deployment's Twilio account (TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN). */
function lookupsConfig(e: Env, carriers: CarriersConfig): LookupsConfig {
  if (e.LOOKUP_PROVIDER === 'offline') return { provider: 'offline' };
  if (carriers.twilio === null) {
    throw new ConfigError(['LOOKUP_PROVIDER: twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (the account Twilio Lookup charges)']);
  }
  return {
    provider: 'twilio',
    baseUrl: e.TWILIO_LOOKUP_BASE_URL.replace(/\/+$/, ''),
    accountSid: carriers.twilio.accountSid,
    authToken: carriers.twilio.authToken,
  };
}

/** MEDIA_S3_BUCKET picks S3; the other MEDIA_S3_* apply only with it, and the keys go in pairs. */
function mediaStorageConfig(e: Env, dataDir: string): MediaStorageConfig {
  const problems: string[] = [];
  if (e.MEDIA_S3_BUCKET === undefined) {
    for (const name of ['MEDIA_S3_ENDPOINT', 'MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'] as const) {
      if (e[name] !== undefined) problems.push(`${name}: applies only with MEDIA_S3_BUCKET`);
    }
  }
  if ((e.MEDIA_S3_ACCESS_KEY_ID === undefined) !== (e.MEDIA_S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push(
      e.MEDIA_S3_ACCESS_KEY_ID === undefined
        ? 'MEDIA_S3_ACCESS_KEY_ID: is required when MEDIA_S3_SECRET_ACCESS_KEY is set (set both or neither)'
        : 'MEDIA_S3_SECRET_ACCESS_KEY: is required when MEDIA_S3_ACCESS_KEY_ID is set (set both or neither)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  if (e.MEDIA_S3_BUCKET === undefined) return { kind: 'disk', dir: path.join(dataDir, 'media') };
  return {
    kind: 's3',
    bucket: e.MEDIA_S3_BUCKET,
    endpoint: e.MEDIA_S3_ENDPOINT ?? null,
    region: e.MEDIA_S3_REGION,
    credentials:
      e.MEDIA_S3_ACCESS_KEY_ID !== undefined && e.MEDIA_S3_SECRET_ACCESS_KEY !== undefined
        ? { accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY }
        : null,
    forcePathStyle: e.MEDIA_S3_FORCE_PATH_STYLE,
  };
}

/** PAYMENTS_PROVIDER=stripe needs its keys and webhook secret; the STRIPE_* names apply only with it. */
function paymentsConfig(e: Env): PaymentsConfig {
  const stripeNames = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_API_HOST', 'STRIPE_API_PORT', 'STRIPE_API_PROTOCOL'] as const;
  if (e.PAYMENTS_PROVIDER !== 'stripe') {
    const stray = stripeNames.filter((name) => e[name] !== undefined);
    if (stray.length > 0) throw new ConfigError(stray.map((name) => `${name}: applies only with PAYMENTS_PROVIDER=stripe`));
    return { provider: 'sandbox' };
  }
  const problems: string[] = [];
  if (e.STRIPE_SECRET_KEY === undefined) problems.push('STRIPE_SECRET_KEY: is required with PAYMENTS_PROVIDER=stripe');
  if (e.STRIPE_WEBHOOK_SECRET === undefined) problems.push("STRIPE_WEBHOOK_SECRET: is required with PAYMENTS_PROVIDER=stripe (the webhook endpoint's signing secret)");
  if (e.STRIPE_PUBLISHABLE_KEY === undefined) problems.push("STRIPE_PUBLISHABLE_KEY: is required with PAYMENTS_PROVIDER=stripe (the web app's card form runs Stripe.js with it)");
  if ((e.STRIPE_API_PORT !== undefined || e.STRIPE_API_PROTOCOL !== undefined) && e.STRIPE_API_HOST === undefined) {
    problems.push('STRIPE_API_HOST: is required when STRIPE_API_PORT or STRIPE_API_PROTOCOL is set');
  }
  if (problems.length > 0 || e.STRIPE_SECRET_KEY === undefined || e.STRIPE_WEBHOOK_SECRET === undefined || e.STRIPE_PUBLISHABLE_KEY === undefined) {
    throw new ConfigError(problems);
  }
  const protocol = e.STRIPE_API_PROTOCOL ?? 'https';
  return {
    provider: 'stripe',
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    api: e.STRIPE_API_HOST === undefined ? null : { host: e.STRIPE_API_HOST, port: e.STRIPE_API_PORT ?? (protocol === 'https' ? 443 : 80), protocol },
  };
}

/** The deployment's carriers: each configured one, and the default refused unless configured. */
function carriersConfig(e: Env): CarriersConfig {
  const problems: string[] = [];
  if ((e.TWILIO_ACCOUNT_SID === undefined) !== (e.TWILIO_AUTH_TOKEN === undefined)) {
    problems.push(
      e.TWILIO_ACCOUNT_SID === undefined
        ? 'TWILIO_ACCOUNT_SID: is required when TWILIO_AUTH_TOKEN is set (set both or neither)'
        : 'TWILIO_AUTH_TOKEN: is required when TWILIO_ACCOUNT_SID is set (set both or neither)',
    );
  }
  const twilio: TwilioConnectionConfig | null =
    e.TWILIO_ACCOUNT_SID !== undefined && e.TWILIO_AUTH_TOKEN !== undefined
      ? { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN, callerId: e.TWILIO_CALLER_ID ?? null }
      : null;
  // Twilio reaches us at PUBLIC_URL; the localhost default would leave every message at `queued`.
  if (twilio !== null && e.PUBLIC_URL === undefined) {
    problems.push("PUBLIC_URL: is required with TWILIO_ACCOUNT_SID (Twilio's status and inbound webhooks must reach this server)");
  }
  if (e.TWILIO_CALLER_ID !== undefined && twilio === null) problems.push('TWILIO_CALLER_ID: applies only with TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  if (e.SMPP_SYSTEM_TYPE !== undefined && e.SMPP_URL === undefined) problems.push('SMPP_SYSTEM_TYPE: applies only with SMPP_URL');
  const smpp = e.SMPP_URL === undefined ? null : { ...e.SMPP_URL, systemType: e.SMPP_SYSTEM_TYPE ?? null };
  const simulator = e.SIMULATOR ?? e.DATABASE_URL === undefined;

  const configured: CarrierName[] = [...(simulator ? ['simulator' as const] : []), ...(smpp ? ['smpp' as const] : []), ...(twilio ? ['twilio' as const] : [])];
  let defaultCarrier: CarrierName | null;
  if (e.CARRIER !== undefined) {
    defaultCarrier = e.CARRIER;
    if (!configured.includes(e.CARRIER)) problems.push(`CARRIER: ${e.CARRIER} is not configured (${howToConfigure(e.CARRIER)})`);
  } else if (simulator) {
    defaultCarrier = 'simulator';
  } else if (configured.length > 1) {
    defaultCarrier = null;
    problems.push('CARRIER: is required when both SMPP and Twilio are configured (smpp or twilio)');
  } else {
    defaultCarrier = configured[0] ?? null;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { simulator, defaultCarrier, smpp, smppWindow: e.SMPP_WINDOW, twilio, twilioApiBaseUrl: e.TWILIO_API_BASE_URL.replace(/\/+$/, '') };
}

function howToConfigure(carrier: CarrierName): string {
  switch (carrier) {
    case 'simulator':
      return 'set SIMULATOR=true';
    case 'smpp':
      return 'set SMPP_URL';
    case 'twilio':
      return 'set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN';
  }
}

/** The names the schema knows, for the documentation test. */
export const configVariableNames: readonly string[] = Object.keys(envSchema.shape);
