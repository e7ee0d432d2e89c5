import path from 'node:path';
import { z } from 'zod';
import { formatMoney, pageViewSinks } from '@parley/shared';

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

/** Every environment variable the server reads, with its default. docs/configuration.md lists the same. */
const envSchema = z.object({
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int({ message: 'must be a port number' })
    .min(0, { message: 'must be a port number between 0 and 65535' })
    .max(65535, { message: 'must be a port number between 0 and 65535' })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: positiveInt(500).default(10),
  SERVICES: servicesList.default(['web', 'worker', 'scheduler']),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: positiveInt(600_000).default(30_000),
  DEV_AUTH: booleanFlag.default(false),
  PAGE_VIEWS_SINK: z.enum(pageViewSinks).default('off'),
  PAGE_VIEWS_URL: z.url({ message: 'must be an absolute http(s) URL' }).optional(),
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
  TRIAL_CREDIT: z
    .string()
    .regex(/^\d{1,10}(\.\d{1,4})?$/, { message: 'must be an amount in USD with at most 4 decimals, e.g. 5.0000' })
    .default('5.0000'),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** Unset: the embedded PGlite database in dataDir. */
  databaseUrl: string | null;
  databasePoolMax: number;
  services: readonly ServiceName[];
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  shutdownTimeoutMs: number;
  devAuth: boolean;
  pageViews: { sink: z.infer<typeof envSchema>['PAGE_VIEWS_SINK']; url: string | null };
  eventsRetentionDays: number;
  jobs: { retryLimit: number; retryDelaySeconds: number };
  /** smtpUrl unset: outgoing e-mail is kept in the local mailbox table. */
  mail: { smtpUrl: string | null; from: string };
  identity: IdentityConfig;
  /** What a new account is credited on its trial plan: USD, a decimal string with 4 decimals. */
  billing: { trialCredit: string };
  version: string;
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
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    databasePoolMax: e.DATABASE_POOL_MAX,
    services: e.SERVICES,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    devAuth: e.DEV_AUTH,
    pageViews: { sink: e.PAGE_VIEWS_SINK, url: e.PAGE_VIEWS_URL ?? null },
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
    billing: { trialCredit: formatMoney(e.TRIAL_CREDIT) },
    version,
  };
}

/** The names the schema knows, for the documentation test. */
export const configVariableNames: readonly string[] = Object.keys(envSchema.shape);
