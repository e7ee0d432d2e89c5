import { createHmac } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, inboundMailListSchema } from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { parseMail, receiveMail } from './inboundMail.js';
import { MAIL_SIZE_LIMIT } from './emailListener.js';
import { latestMails } from './mailStore.js';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema };
export const FORGED_MAIL_MESSAGE = 'The signature does not match the message';

const headerOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** `X-Parley-Signature: sha256=<hex HMAC-SHA256 of the body>` with INBOUND_MAIL_WEBHOOK_SECRET. */
export function inboundSignatureOk(secret: string, body: Buffer, header: string | undefined): boolean {
  if (header === undefined) return false;
  return sameSecretText(header.trim(), `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
}

/**
 * The Email integration's routes (docs/integrations.md, "Email"): the webhook door for mail an operator's
 * inbound service relays (the same path as the SMTP listener), and the page's log.
 */
export const emailRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = { db: ctx.database.db, config: ctx.config, mailer: ctx.mailer };
  // The signature covers the message byte for byte.
  app.addContentTypeParser('message/rfc822', { parseAs: 'buffer', bodyLimit: MAIL_SIZE_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/integrations/email/inbound',
    {
      schema: {
        tags: ['integrations'],
        summary: 'A mail relayed by an inbound-mail service (message/rfc822; X-Parley-Recipient, optional X-Parley-Sender; signed in X-Parley-Signature)',
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
      config: { permission: 'public' },
    },
    async (request) => {
      const secret = ctx.config.inboundMail?.webhookSecret ?? null;
      if (secret === null) throw notFound('The inbound mail door of this deployment');
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError(400, 'bad_request', 'Send the message as message/rfc822');
      if (!inboundSignatureOk(secret, body, headerOf(request.headers['x-parley-signature']))) throw new AppError(401, 'unauthorized', FORGED_MAIL_MESSAGE);
      const recipient = headerOf(request.headers['x-parley-recipient']);
      if (recipient === undefined || recipient.trim() === '') throw new AppError(400, 'bad_request', 'X-Parley-Recipient: Required');
      const mail = await parseMail(body);
      const mailFrom = headerOf(request.headers['x-parley-sender']) ?? mail.from?.value[0]?.address ?? '';
      const answer = await receiveMail(deps, { via: 'webhook', recipient: recipient.trim(), mailFrom, ...(request.ip === '' ? {} : { remoteAddress: request.ip }) }, mail);
      if (!answer.ok) throw new AppError(422, 'bad_request', answer.message);
      return { success: true as const };
    },
  );

  app.get(
    '/accounts/:acc/integrations/email/mails',
    {
      schema: { tags: ['integrations'], summary: "The latest mails the account's Email integration received, newest first", params: z.object({ acc: z.uuid() }), response: { 200: inboundMailListSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => ({ data: await latestMails(ctx.database.db, membershipOf(request).accountId) }),
  );
  return Promise.resolve();
};
