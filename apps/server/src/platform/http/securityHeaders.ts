import { IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.js';

/*
 * The security headers of every response: the web app, the API, the issuer's pages under /oidc (those
 * oidc-provider writes itself too), /docs, the local mailbox. One policy, set here (helmet, on the raw
 * response as a request starts, so answers that bypass Fastify's reply carry it as well; socket.io's
 * own transport answers do not pass through Fastify). Helmet works the headers out once, at start: asked
 * per request it parsed the policy again each time, a tenth of a redirect's CPU. A route may answer with a stricter
 * Content-Security-Policy of its own (the issuer's script-free pages below, the mailbox, a media file),
 * never a looser one; oidc-provider adds the hash of its own inline script to the one answer that has
 * it. docs/identity.md, "Security headers", says why each source is there.
 */

type Directives = Record<string, string[]>;

export type SecurityHeadersConfig = Pick<Config, 'publicUrl'> & {
  identity: Pick<Config['identity'], 'issuer' | 'embedded' | 'extraWebOrigins'>;
  billing: { payments: Pick<Config['billing']['payments'], 'provider'> };
  /** An external feature board (FEATURE_BOARD_URL) is the one other page the app frames. */
  featureBoard?: Pick<Config['featureBoard'], 'url'>;
};

/**
 * What Stripe.js needs (Stripe's security guide, "Content Security Policy"): its script, its frames (the
 * card fields and the 3-D Secure page) and its API. Only a deployment whose provider is Stripe allows them.
 */
export const stripeSources = {
  'script-src': ['https://js.stripe.com', 'https://*.js.stripe.com'],
  'frame-src': ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  'connect-src': ['https://api.stripe.com'],
} as const;

/** A year, as browsers' preload lists ask; sent only when PUBLIC_URL is https. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const originOf = (url: string): string => new URL(url).origin;

const unique = (values: readonly string[]): string[] => [...new Set(values)];

/**
 * The Content-Security-Policy of the web app, and of every answer that sets none of its own.
 *
 * - Scripts only from the app's own files: no inline script, no eval, no inline event handlers. The
 *   built index.html loads one module; the service worker and its push handlers are files too.
 * - Styles may be inline: MUI (emotion) writes <style> elements at run time, and index.html has one.
 * - Images from anywhere over https, data: and blob: (a message's media at a carrier or elsewhere, the
 *   account's own files shown through object URLs). The server proxies stored media (S3 included), so
 *   no storage host is needed.
 * - Connections to this server (its API and socket.io, also by ws(s): for browsers that do not count
 *   websockets as 'self') and, with an external issuer (OIDC_ISSUER), to that issuer: the web app reads
 *   its discovery document and calls its token endpoint.
 * - Forms may post to this server and to the other Parley web apps of OIDC_EXTRA_WEB_ORIGINS: browsers
 *   apply form-action to the redirects after a POST, and a sign-out confirmed on the issuer's page ends
 *   on that app's /logout.
 * - Never framed, no plugins, no <base> elsewhere. The app frames only an external feature board
 *   (FEATURE_BOARD_URL, docs/featureRequests.md) and, with Stripe, Stripe's frames.
 * - With PAYMENTS_PROVIDER=stripe, Stripe.js's script, frames and API (stripeSources); the sandbox's
 *   deployment allows none of them, and frames nothing at all (default-src 'self').
 */
export function contentSecurityPolicyDirectives(config: SecurityHeadersConfig): Directives {
  const publicOrigin = originOf(config.publicUrl);
  const secure = publicOrigin.startsWith('https:');
  const websocket = `${secure ? 'wss' : 'ws'}://${new URL(publicOrigin).host}`;
  const issuer = config.identity.embedded ? [] : [originOf(config.identity.issuer)];
  const stripe = config.billing.payments.provider === 'stripe';
  const directives: Directives = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(stripe ? stripeSources['script-src'] : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': unique(["'self'", publicOrigin, 'data:', 'blob:', 'https:']),
    'font-src': ["'self'", 'data:'],
    'connect-src': unique(["'self'", publicOrigin, websocket, ...issuer, ...(stripe ? stripeSources['connect-src'] : [])]),
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': unique(["'self'", publicOrigin, ...config.identity.extraWebOrigins]),
    'frame-ancestors': ["'none'"],
  };
  const board = config.featureBoard?.url ?? null;
  const frames = [...(stripe ? stripeSources['frame-src'] : []), ...(board === null ? [] : [originOf(board)])];
  if (frames.length > 0) directives['frame-src'] = frames;
  if (secure) directives['upgrade-insecure-requests'] = [];
  return directives;
}

/** The directives as the header carries them. */
export function serializePolicy(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

/**
 * The stricter policy of the issuer's own pages (sign-in, password reset, messages): no script at all,
 * nothing loaded, their one inline <style>. `formTargets` are other origins a form's submission may end
 * on (a sign-in ends on the web app's callback, which may be another Parley's).
 */
export function scriptlessPagePolicy(formTargets: readonly string[] = []): string {
  return serializePolicy({
    'default-src': ["'none'"],
    'style-src': ["'unsafe-inline'"],
    'form-action': ["'self'", ...formTargets],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'none'"],
  });
}

/** The helmet options for this deployment (securityHeadersHook sets the headers they give on every response). */
export function securityHeaderOptions(config: SecurityHeadersConfig): HelmetOptions {
  const https = originOf(config.publicUrl).startsWith('https:');
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicyDirectives(config) },
    // No page is ever framed (frame-ancestors 'none' for browsers that know CSP, this for the rest).
    frameguard: { action: 'deny' },
    // Links out (a carrier's media, the docs) tell nothing; the issuer's and the app's URLs carry codes.
    referrerPolicy: { policy: 'no-referrer' },
    // Only behind https: over plain http the header is ignored anyway, and it would pin a host that may
    // serve plain http on purpose (localhost).
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
  };
}

export interface SecurityHeaderSet {
  readonly set: readonly (readonly [string, string])[];
  readonly removed: readonly string[];
}

/** What helmet writes on a response with these options: it has no per-request input here (no nonces, no functions). */
export function securityHeaderSet(options: HelmetOptions): SecurityHeaderSet {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      removed.delete(name);
      return recorder;
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.add(name);
    },
  };
  let failed: unknown = null;
  helmet(options)(new IncomingMessage(new Socket()), recorder as unknown as ServerResponse, (error?: unknown) => {
    failed = error ?? null;
  });
  if (failed !== null) throw new Error('the security header options are not valid', { cause: failed });
  return { set: [...set], removed: [...removed] };
}

/**
 * The first hook of every request (app/httpApp.ts): the headers go on the raw response, so answers that
 * bypass Fastify's reply carry them as well, and a route's own stricter policy replaces them.
 */
export function securityHeadersHook(config: SecurityHeadersConfig): onRequestHookHandler {
  const { set, removed } = securityHeaderSet(securityHeaderOptions(config));
  return (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of set) raw.setHeader(name, value);
    for (const name of removed) raw.removeHeader(name);
    done();
  };
}
