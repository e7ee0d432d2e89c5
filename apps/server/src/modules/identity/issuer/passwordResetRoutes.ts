import { emailAddress, weakPasswordMessage } from '@parley/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../platform/context.js';
import {
  FORGOT_PASSWORD_PATH,
  requestPasswordReset,
  RESET_PASSWORD_PATH,
  resetPassword,
  resetTokenIsUsable,
} from '../passwordReset.js';
import { normalizeEmail } from '../users.js';
import { forgotPasswordPage, linkPage, resetPasswordPage } from './html.js';
import { RateLimiter } from './rateLimiter.js';
import { formField, html } from './reply.js';

/** Reset requests per client address, and mails per address asked for, per window, in this process. */
export const RESET_REQUESTS_PER_CLIENT = 10;
export const RESET_MAILS_PER_EMAIL = 3;
/** New-password submissions per client address (tokens cannot be guessed; this only bounds the hashing work). */
export const RESET_SUBMITS_PER_CLIENT = 20;
export const RESET_RATE_WINDOW_MS = 15 * 60_000;

export const RESET_REQUESTED =
  'If an account exists for that address, we have sent a link to reset the password. The link works for 1 hour.';
export const TOO_MANY_RESET_REQUESTS = 'Too many requests. Wait a few minutes and try again.';
export const PASSWORDS_DIFFER = 'The passwords do not match.';
const LINK_EXPIRED = 'This link has expired or was already used. Ask for a new one.';
const PASSWORD_CHANGED = 'Your password has been changed. Sign in to Parley with the new one.';

/** The rules under the new-password field: the weak-password message without its first line. */
const passwordRulesText = (): string => weakPasswordMessage().split('\n').slice(1).join('\n');

/** 'Forgot your password?': the request page and the new-password page of a mailed link, under /oidc. */
export const passwordResetRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const requestsPerClient = new RateLimiter(RESET_REQUESTS_PER_CLIENT, RESET_RATE_WINDOW_MS);
  const mailsPerEmail = new RateLimiter(RESET_MAILS_PER_EMAIL, RESET_RATE_WINDOW_MS);
  const submitsPerClient = new RateLimiter(RESET_SUBMITS_PER_CLIENT, RESET_RATE_WINDOW_MS);
  const expiredPage = () => linkPage('Reset your password', LINK_EXPIRED, { href: FORGOT_PASSWORD_PATH, label: 'Ask for a new link' });
  const formPage = (token: string, error?: string) =>
    resetPasswordPage({ action: RESET_PASSWORD_PATH, token, rules: passwordRulesText(), ...(error === undefined ? {} : { error }) });

  app.get(FORGOT_PASSWORD_PATH, { schema: { hide: true }, config: { permission: 'public' } }, (_request, reply) =>
    html(reply, 200, forgotPasswordPage({ action: FORGOT_PASSWORD_PATH })),
  );

  app.post(FORGOT_PASSWORD_PATH, { schema: { hide: true }, config: { permission: 'public' } }, async (request, reply) => {
    const given = formField(request.body, 'email').trim();
    if (!requestsPerClient.take(request.ip)) {
      return html(reply, 429, forgotPasswordPage({ action: FORGOT_PASSWORD_PATH, email: given, error: TOO_MANY_RESET_REQUESTS }));
    }
    const parsed = emailAddress.safeParse(given);
    if (!parsed.success) {
      const error = parsed.error.issues[0]?.message ?? 'Invalid email address';
      return html(reply, 400, forgotPasswordPage({ action: FORGOT_PASSWORD_PATH, email: given, error }));
    }
    // Over the per-address limit nothing is sent, and the page says the same as always.
    if (mailsPerEmail.take(normalizeEmail(parsed.data))) {
      const sent = await requestPasswordReset(ctx, parsed.data).catch((err: unknown) => {
        request.log.error({ err }, 'password reset mail not sent');
        return false;
      });
      request.log.info({ sent }, 'password reset requested');
    }
    return html(reply, 200, forgotPasswordPage({ action: FORGOT_PASSWORD_PATH, notice: RESET_REQUESTED }));
  });

  app.get<{ Querystring: { token?: string } }>(
    RESET_PASSWORD_PATH,
    { schema: { hide: true }, config: { permission: 'public' } },
    async (request, reply) => {
      const token = typeof request.query.token === 'string' ? request.query.token.slice(0, 200) : '';
      if (!(await resetTokenIsUsable(ctx.database.db, token))) return html(reply, 400, expiredPage());
      return html(reply, 200, formPage(token));
    },
  );

  app.post(RESET_PASSWORD_PATH, { schema: { hide: true }, config: { permission: 'public' } }, async (request, reply) => {
    const token = formField(request.body, 'token');
    if (!submitsPerClient.take(request.ip)) return html(reply, 429, formPage(token, TOO_MANY_RESET_REQUESTS));
    const password = formField(request.body, 'password');
    if (password !== formField(request.body, 'confirm')) return html(reply, 400, formPage(token, PASSWORDS_DIFFER));
    const outcome = await resetPassword(ctx.database.db, token, password);
    if (!outcome.ok) {
      return outcome.reason === 'weak' ? html(reply, 400, formPage(token, weakPasswordMessage())) : html(reply, 400, expiredPage());
    }
    request.log.info({ userId: outcome.userId }, 'password reset');
    return html(reply, 200, linkPage('Password changed', PASSWORD_CHANGED, { href: ctx.config.publicUrl, label: 'Go to Parley' }));
  });
  return Promise.resolve();
};
