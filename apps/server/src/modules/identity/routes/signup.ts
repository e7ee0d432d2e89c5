import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, signUpSchema } from '@parley/shared';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { RateLimiter } from '../issuer/rateLimiter.js';
import { FORGOT_PASSWORD_PATH } from '../passwordReset.js';
import { EMAIL_TAKEN_MESSAGE, signUp } from '../signUp.js';
import { sendVerificationEmail } from '../verification.js';
import { alreadyRegisteredMail } from '../../../platform/mail/templates/alreadyRegistered.js';

/** Sign-up attempts (valid or not) per client address and window, in this process. */
export const SIGN_UP_RATE_LIMIT = 10;
export const SIGN_UP_RATE_WINDOW_MS = 15 * 60_000;
/** "You already have an account" notices per address and window, so sign-up cannot flood a mailbox. */
const NOTICE_LIMIT = 1;
const NOTICE_WINDOW_MS = 60 * 60_000;
export const TOO_MANY_SIGN_UPS = 'Too many sign-up attempts. Wait a few minutes and try again.';

const signUpRequestSchema = signUpSchema.extend({
  /** Where the web app continues after the address is verified: a local path only. */
  redirectTo: z.string().max(2000).optional(),
});

const signedUpSchema = z.object({ data: z.object({ id: z.string(), email: z.string() }) });

export const signUpRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const attempts = new RateLimiter(SIGN_UP_RATE_LIMIT, SIGN_UP_RATE_WINDOW_MS);
  const notices = new RateLimiter(NOTICE_LIMIT, NOTICE_WINDOW_MS);

  app.post(
    '/signup',
    {
      schema: {
        tags: ['identity'],
        summary: 'Create a user from the sign-up form and mail the verification link',
        body: signUpRequestSchema,
        response: { 201: signedUpSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
      config: { permission: 'public' },
      // Before validation, so malformed attempts count too.
      preValidation: (request, _reply, done) => {
        if (!attempts.take(request.ip)) {
          done(new AppError(429, 'rate_limited', TOO_MANY_SIGN_UPS));
          return;
        }
        done();
      },
    },
    async (request, reply) => {
      const { redirectTo, ...form } = request.body;
      const outcome = await signUp(ctx.database.db, form);
      if (!outcome.ok) {
        const { existing } = outcome;
        if (notices.take(existing.email)) {
          const content = alreadyRegisteredMail({
            firstName: existing.firstName,
            signInUrl: `${ctx.config.publicUrl}/login`,
            resetUrl: ctx.config.identity.embedded ? `${ctx.config.publicUrl}${FORGOT_PASSWORD_PATH}` : null,
          });
          await ctx.mailer.send({ to: existing.email, ...content }).catch((err: unknown) => {
            request.log.warn({ err }, 'already-registered notice not sent');
          });
        }
        throw new AppError(409, 'conflict', EMAIL_TAKEN_MESSAGE);
      }
      const { user } = outcome;
      // The user exists either way; a mail that fails now can be sent again from the app's banner.
      await sendVerificationEmail(ctx, user, { redirectTo: redirectTo ?? null }).catch((err: unknown) => {
        request.log.error({ err }, 'verification email not sent');
      });
      return reply.code(201).send({ data: { id: user.id, email: user.email } });
    },
  );
  return Promise.resolve();
};
