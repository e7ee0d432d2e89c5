import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Provider } from 'oidc-provider';
import { rewriteForwardedHeaders } from '../../../platform/http/clientAddress.js';
import type { AppContext } from '../../../platform/context.js';
import { acceptOpenInvitations } from '../invitationsAcceptance.js';
import { FORGOT_PASSWORD_PATH } from '../passwordReset.js';
import { checkCredentials, SIGN_IN_FAILED_MESSAGE } from '../signIn.js';
import { upstreamProviders } from '../social/upstream.js';
import { messagePage, signInPage } from './html.js';
import { grantFirstPartyConsent } from './interactions.js';
import { AUTO_SUBMIT_LOGOUT_PATH, AUTO_SUBMIT_LOGOUT_SCRIPT, INTERACTION_PATH, ISSUER_PATH } from './provider.js';
import { oauth2TokenRoutes } from './oauth2TokenRoutes.js';
import { passwordResetRoutes } from './passwordResetRoutes.js';
import { RateLimiter } from './rateLimiter.js';
import { formField, html } from './reply.js';
import { socialRoutes, socialStartPath, TOO_MANY_ATTEMPTS } from './socialRoutes.js';

/** Sign-in POSTs per client address and window, in this process (see rateLimiter.ts). */
const SIGN_IN_RATE_LIMIT = 20;
const SIGN_IN_RATE_WINDOW_MS = 5 * 60_000;
const EXPIRED = 'This sign-in has expired or was already used. Go back to Parley and sign in again.';

type MountedRequest = IncomingMessage & { originalUrl?: string };

/**
 * The embedded issuer under /oidc: the sign-in interaction as Fastify routes, everything else handed
 * to oidc-provider untouched (hijacked before Fastify reads the body, which the provider parses itself).
 */
export const issuerRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; provider: Provider }> = async (app, { ctx, provider }) => {
  const limiter = new RateLimiter(SIGN_IN_RATE_LIMIT, SIGN_IN_RATE_WINDOW_MS);
  const callback = provider.callback();
  const upstreams = upstreamProviders(ctx.config.identity.socialProviders, ctx.config.identity.issuer);
  const page = (uid: string, extra: { email?: string; error?: string } = {}) =>
    signInPage({
      action: `${INTERACTION_PATH}/${uid}`,
      forgotUrl: FORGOT_PASSWORD_PATH,
      signUpUrl: `${ctx.config.publicUrl}/signup`,
      social: [...upstreams.values()].map((u) => ({ name: u.name, href: socialStartPath(uid, u.id) })),
      ...extra,
    });
  // The sign-in form ends on a web app's callback: this app's (same origin) or another Parley's (OIDC_EXTRA_WEB_ORIGINS).
  const signInForm = (reply: FastifyReply, status: number, body: string) => html(reply, status, body, ctx.config.identity.extraWebOrigins);

  // The provider builds its URLs and cookies from X-Forwarded-*: it sees what TRUST_PROXY allows, no more.
  app.addHook('onRequest', (request, _reply, done) => {
    rewriteForwardedHeaders(request);
    done();
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  await app.register(passwordResetRoutes, { ctx });
  await app.register(oauth2TokenRoutes);

  async function details(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
    try {
      const found = await provider.interactionDetails(request.raw, reply.raw);
      return found.uid === request.params.uid ? found : null;
    } catch {
      return null;
    }
  }
  await app.register(socialRoutes, { ctx, provider, upstreams, limiter, interactionOf: details, signInPage: (uid, error) => page(uid, { error }) });

  app.get<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, { schema: { hide: true }, config: { permission: 'public' } }, async (request, reply) => {
    const interaction = await details(request, reply);
    if (!interaction) return html(reply, 400, messagePage('Sign in', EXPIRED));
    switch (interaction.prompt.name) {
      case 'login': {
        // 'Continue with <provider>' on the app's sign-up page asks for that provider straight away.
        const hinted = interaction.params.idp_hint;
        if (typeof hinted === 'string' && upstreams.has(hinted)) return reply.redirect(socialStartPath(interaction.uid, hinted), 303);
        return signInForm(reply, 200, page(interaction.uid));
      }
      case 'consent': {
        if (interaction.params.client_id !== ctx.config.identity.clientId) {
          return html(reply, 403, messagePage('Sign in', 'This application may not sign in with Parley.'));
        }
        const grantId = await grantFirstPartyConsent(provider, interaction);
        const returnTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } });
        return reply.redirect(returnTo, 303);
      }
      default:
        return html(reply, 400, messagePage('Sign in', EXPIRED));
    }
  });

  app.post<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, { schema: { hide: true }, config: { permission: 'public' } }, async (request, reply) => {
    const interaction = await details(request, reply);
    if (interaction?.prompt.name !== 'login') return html(reply, 400, messagePage('Sign in', EXPIRED));
    const email = formField(request.body, 'email').trim();
    // Only failures count against the address: an office behind one address signs in all day.
    if (limiter.isOver(request.ip)) return signInForm(reply, 429, page(interaction.uid, { email, error: TOO_MANY_ATTEMPTS }));
    const password = formField(request.body, 'password');
    const result = email === '' || password === '' ? null : await checkCredentials(ctx.database.db, email, password);
    if (!result?.ok) {
      limiter.take(request.ip);
      request.log.info({ reason: result?.reason ?? 'empty' }, 'sign-in refused');
      return signInForm(reply, 401, page(interaction.uid, { email, error: SIGN_IN_FAILED_MESSAGE }));
    }
    // An invitation sent after sign-up (to a verified address) becomes a membership at the next sign-in.
    await acceptOpenInvitations(ctx.database.db, result.userId).catch((err: unknown) => {
      request.log.error({ err }, 'invitations not accepted at sign-in');
    });
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId: result.userId } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  });

  // The sign-out page's script (provider.ts): a file, since the pages run no inline script.
  app.get(AUTO_SUBMIT_LOGOUT_PATH, { schema: { hide: true }, config: { permission: 'public' } }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(AUTO_SUBMIT_LOGOUT_SCRIPT),
  );

  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: `${ISSUER_PATH}/*`,
    schema: { hide: true },
    config: { permission: 'public' },
    onRequest: (request, reply) => {
      // Never calls done: the provider answers on the raw response from here on.
      reply.hijack();
      const raw: MountedRequest = request.raw;
      const url = raw.url ?? '/';
      raw.originalUrl = url;
      raw.url = url.slice(ISSUER_PATH.length) || '/';
      void callback(raw, reply.raw);
    },
    handler: () => undefined,
  });
};
