import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Provider } from 'oidc-provider';
import type { AppContext } from '../../../platform/context.js';
import { acceptOpenInvitations } from '../invitationsAcceptance.js';
import { attemptInteraction, saveAttempt, takeAttempt } from '../social/attempts.js';
import { resolveSocialUser, type SocialSignInOutcome } from '../social/socialUsers.js';
import { UpstreamError, type UpstreamProvider } from '../social/upstream.js';
import { messagePage } from './html.js';
import { ISSUER_PATH, INTERACTION_PATH } from './provider.js';
import type { RateLimiter } from './rateLimiter.js';
import { html } from './reply.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Wait a few minutes and try again.';
export const UNKNOWN_PROVIDER = 'This sign-in provider is not configured. Go back to Parley and sign in again.';
export const SOCIAL_EXPIRED = 'This sign-in has expired or was already used. Go back to Parley and sign in again.';

/** What the person reads when an upstream sign-in is refused; `name` is the provider's display name. */
export const socialMessages = {
  unavailable: (name: string) => `Signing in with ${name} is not available right now. Try again later, or sign in with your password.`,
  upstreamError: (name: string, error: string) => `${name} did not sign you in (${error}). Try again, or sign in with your password.`,
  notConfirmed: (name: string) => `We could not confirm your sign-in with ${name}. Try again.`,
  no_email: (name: string) => `${name} did not share an email address with Parley. Allow it to, or sign up with a password.`,
  unverified_email: (name: string) =>
    `${name} has not verified the email address of your account. Verify it there, or sign up with a password.`,
  unverified_email_in_use: (name: string) =>
    `A Parley user already has this email address, and ${name} has not verified it for your account. Verify it there, or sign in with your password.`,
} satisfies Record<'unavailable' | 'upstreamError' | 'notConfirmed' | Extract<SocialSignInOutcome, { ok: false }>['reason'], unknown>;

export const socialStartPath = (uid: string, providerId: string): string => `${INTERACTION_PATH}/${uid}/social/${providerId}`;
export const socialCallbackPath = (providerId: string): string => `${ISSUER_PATH}/social/${providerId}/callback`;

export interface SocialRoutesOptions {
  ctx: AppContext;
  provider: Provider;
  upstreams: ReadonlyMap<string, UpstreamProvider>;
  /** The sign-in limiter: a callback counts as one sign-in attempt. */
  limiter: RateLimiter;
  /** The interaction of this browser when it is the one in the path, else null. */
  interactionOf: (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) => Promise<Interaction | null>;
  /** The sign-in page of an interaction, with an error. */
  signInPage: (uid: string, error: string) => string;
}

type StartRequest = FastifyRequest<{ Params: { uid: string; provider: string } }>;
type CallbackRequest = FastifyRequest<{ Params: { uid: string; provider: string }; Querystring: Record<string, string | undefined> }>;

/** The query string as the browser sent it (the code exchange checks every parameter, iss included). */
const queryOf = (request: FastifyRequest): URLSearchParams => new URLSearchParams(request.raw.url?.split('?')[1] ?? '');

/**
 * Social sign-in on the embedded issuer: from the sign-in interaction to an upstream OpenID Connect
 * provider (authorization code + PKCE, with state and nonce kept against the interaction) and back.
 *
 * The upstream returns to one fixed URL per provider (`/oidc/social/<id>/callback`, registered there),
 * where the browser carries no interaction cookie (it is scoped to `/oidc/interaction/<uid>`); that URL
 * only finds the interaction of the state and relays the browser to the interaction's own callback,
 * where the cookie must match before the code is exchanged. A state from another browser therefore
 * lands on an interaction this browser does not have, and is refused.
 */
export const socialRoutes: FastifyPluginAsyncZod<SocialRoutesOptions> = (app, options) => {
  const { ctx, provider, upstreams, limiter, interactionOf, signInPage } = options;
  // Pages holding the sign-in form may end on another Parley's callback, as the plain sign-in page may.
  const extraOrigins = ctx.config.identity.extraWebOrigins;
  const routeOptions = { schema: { hide: true }, config: { permission: 'public' as const } };

  app.get(`${INTERACTION_PATH}/:uid/social/:provider`, routeOptions, async (request: StartRequest, reply) => {
    const upstream = upstreams.get(request.params.provider);
    if (!upstream) return html(reply, 404, messagePage('Sign in', UNKNOWN_PROVIDER));
    const interaction = await interactionOf(request, reply);
    if (interaction?.prompt.name !== 'login') return html(reply, 400, messagePage('Sign in', SOCIAL_EXPIRED));
    try {
      const { url, secrets } = await upstream.authorizationRequest();
      await saveAttempt(ctx.database.db, { ...secrets, provider: upstream.id, uid: interaction.uid });
      return await reply.redirect(url.toString(), 303);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      request.log.warn({ err, provider: upstream.id }, 'social sign-in unavailable');
      return html(reply, 502, signInPage(interaction.uid, socialMessages.unavailable(upstream.name)), extraOrigins);
    }
  });

  // The fixed redirect URI: relays to the interaction's callback, where the interaction cookie is sent.
  app.get(`${ISSUER_PATH}/social/:provider/callback`, routeOptions, async (request: FastifyRequest<{ Params: { provider: string } }>, reply) => {
    const upstream = upstreams.get(request.params.provider);
    if (!upstream) return html(reply, 404, messagePage('Sign in', UNKNOWN_PROVIDER));
    const query = queryOf(request);
    const uid = await attemptInteraction(ctx.database.db, upstream.id, query.get('state') ?? '');
    if (uid === null) {
      request.log.info({ provider: upstream.id }, 'social sign-in callback without a known state');
      return html(reply, 400, messagePage('Sign in', SOCIAL_EXPIRED));
    }
    return reply.redirect(`${socialStartPath(uid, upstream.id)}/callback?${query.toString()}`, 303);
  });

  app.get(`${INTERACTION_PATH}/:uid/social/:provider/callback`, routeOptions, async (request: CallbackRequest, reply) => {
    const upstream = upstreams.get(request.params.provider);
    if (!upstream) return html(reply, 404, messagePage('Sign in', UNKNOWN_PROVIDER));
    const interaction = await interactionOf(request, reply);
    if (interaction?.prompt.name !== 'login') return html(reply, 400, messagePage('Sign in', SOCIAL_EXPIRED));
    const { uid } = interaction;
    if (!limiter.take(request.ip)) return html(reply, 429, signInPage(uid, TOO_MANY_ATTEMPTS), extraOrigins);
    const query = queryOf(request);
    const attempt = await takeAttempt(ctx.database.db, { provider: upstream.id, uid, state: query.get('state') ?? '' });
    if (!attempt) {
      request.log.info({ provider: upstream.id }, 'social sign-in refused: state unknown, used or of another interaction');
      return html(reply, 400, messagePage('Sign in', SOCIAL_EXPIRED));
    }
    const error = query.get('error');
    if (error !== null) {
      request.log.info({ provider: upstream.id, error, description: query.get('error_description') }, 'upstream refused the sign-in');
      return html(reply, 400, signInPage(uid, socialMessages.upstreamError(upstream.name, error.slice(0, 64))), extraOrigins);
    }
    let outcome: SocialSignInOutcome;
    try {
      const claims = await upstream.complete(query, attempt);
      outcome = await resolveSocialUser(ctx.database.db, upstream.id, claims);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      request.log.warn({ err, provider: upstream.id }, 'social sign-in not confirmed');
      return html(reply, 502, signInPage(uid, socialMessages.notConfirmed(upstream.name)), extraOrigins);
    }
    if (!outcome.ok) {
      request.log.info({ provider: upstream.id, reason: outcome.reason }, 'social sign-in refused');
      return html(reply, 403, signInPage(uid, socialMessages[outcome.reason](upstream.name)), extraOrigins);
    }
    request.log.info({ provider: upstream.id, userId: outcome.userId, how: outcome.how }, 'social sign-in');
    // As at a password sign-in: invitations sent to the (verified) address become memberships.
    await acceptOpenInvitations(ctx.database.db, outcome.userId).catch((err: unknown) => {
      request.log.error({ err }, 'invitations not accepted at social sign-in');
    });
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId: outcome.userId, amr: ['fed'] } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  });
  return Promise.resolve();
};
