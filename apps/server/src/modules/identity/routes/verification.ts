import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@parley/shared';
import { z } from 'zod';
import { principalOf } from '../guard.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { RateLimiter } from '../issuer/rateLimiter.js';
import { findUserById } from '../users.js';
import { safeRedirectPath, sendVerificationEmail, verifyEmail } from '../verification.js';

/** Verification e-mails a user may ask for per window, in this process. */
export const RESEND_LIMIT = 3;
export const RESEND_WINDOW_MS = 15 * 60_000;
export const TOO_MANY_RESENDS = 'Too many verification emails. Wait 15 minutes and try again.';
export const ALREADY_VERIFIED = 'Your email is already verified.';

/** The web app's pages (open routes, docs/identity.md). */
export const VERIFIED_PAGE = '/verified';
export const VERIFICATION_EXPIRED_PAGE = '/resendverification?error=expired';

export const verificationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const resends = new RateLimiter(RESEND_LIMIT, RESEND_WINDOW_MS);

  app.get(
    '/verify',
    {
      schema: {
        tags: ['identity'],
        summary: 'The link of the verification email: verifies the address and redirects to the web app',
        querystring: z.object({ token: z.string().max(200).optional(), redirectTo: z.string().max(2000).optional() }),
        response: { 303: z.null().describe('To /verified, or to /resendverification?error=expired') },
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const userId = await verifyEmail(ctx.database.db, request.query.token ?? '');
      void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (userId === null) return reply.redirect(VERIFICATION_EXPIRED_PAGE, 303);
      const redirectTo = safeRedirectPath(request.query.redirectTo);
      const target = redirectTo === null ? VERIFIED_PAGE : `${VERIFIED_PAGE}?${new URLSearchParams({ redirectTo }).toString()}`;
      return reply.redirect(target, 303);
    },
  );

  app.get(
    '/profile/resendverification',
    {
      schema: {
        tags: ['identity'],
        summary: 'Send the verification email again',
        security: [{ bearer: [] }],
        response: { 204: z.null(), 403: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
      config: { permission: 'authenticated' },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.clientId !== undefined) {
        throw new AppError(403, 'forbidden', 'Only a signed-in person can ask for a verification email.');
      }
      const user = await findUserById(ctx.database.db, principal.userId);
      if (!user) throw new AppError(401, 'unauthorized', 'Sign in to continue.');
      if (user.emailVerifiedAt !== null) throw new AppError(409, 'conflict', ALREADY_VERIFIED);
      if (!resends.take(user.id)) throw new AppError(429, 'rate_limited', TOO_MANY_RESENDS);
      await sendVerificationEmail(ctx, user);
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
