import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, slackAuthorizeSchema, SLACK_NOT_CONFIGURED_MESSAGE } from '@parley/shared';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { channelDeps } from '../channels/channelDeps.js';
import { applySlackEvent, slackEnvelope } from '../channels/slackEvents.js';
import { completeSlackInstall, slackAuthorizeUrl } from '../channels/slackInstall.js';
import { verifySlackRequest } from '../channels/slackSigning.js';

export const SLACK_SIGNATURE_REFUSED_MESSAGE = 'The request does not carry a valid Slack signature';
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** "Add to Slack", Slack's OAuth redirect back, and the Events API (docs/notifications.md, "Slack"). */
export const slackRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const deps = channelDeps(ctx.database.db, ctx.config);
  const { publicUrl } = ctx.config;
  const tags = ['notifications'];

  // Scoped to this plugin: Slack's signature covers the exact bytes, so the events route reads them raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => {
    done(null, typeof body === 'string' ? body : body.toString('utf8'));
  });

  app.get(
    '/accounts/:acc/notificationchannels/slack/authorize',
    {
      schema: { tags, summary: 'Where "Add to Slack" sends the user (Slack OAuth v2, a state bound to this user and account)', params: z.object({ acc: z.uuid() }), response: { 200: slackAuthorizeSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.clientId !== undefined) throw new AppError(403, 'forbidden', 'Notification channels belong to people; an API client has none');
      return { data: { url: await slackAuthorizeUrl(deps, ctx.config.slack, publicUrl, membershipOf(request).accountId, principal.userId) } };
    },
  );

  app.get(
    '/notificationchannels/slack/callback',
    {
      schema: { tags, summary: "Slack's OAuth redirect back: stores the bot token, then sends the browser to the Slack page", querystring: z.object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }), response: { 302: z.null() } },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const page = `${publicUrl}/notifications/slack`;
      const { code, state, error } = request.query;
      if (error !== undefined || code === undefined || state === undefined) return reply.redirect(`${page}?error=${encodeURIComponent(error ?? 'Slack did not authorize Parley')}`, 302);
      try {
        await completeSlackInstall(deps, publicUrl, { code, state });
        return await reply.redirect(`${page}?connected=1`, 302);
      } catch (caught) {
        request.log.warn({ err: caught }, 'Slack authorization failed');
        const message = caught instanceof AppError ? caught.message : 'Slack could not be connected';
        return reply.redirect(`${page}?error=${encodeURIComponent(message)}`, 302);
      }
    },
  );

  app.post(
    '/notificationchannels/slack/events',
    {
      schema: { tags, summary: "Slack's Events API: signed requests only; a reply in a notification's thread is texted to the contact", body: z.string(), response: { 200: z.object({ challenge: z.string().optional(), ok: z.boolean() }), ...errors } },
      config: { permission: 'public' },
    },
    async (request) => {
      const slack = ctx.config.slack;
      if (slack === null) throw new AppError(404, 'not_found', SLACK_NOT_CONFIGURED_MESSAGE);
      const header = (name: string): string | undefined => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const signed = verifySlackRequest({
        signingSecret: slack.signingSecret,
        signature: header('x-slack-signature'),
        timestamp: header('x-slack-request-timestamp'),
        body: request.body,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      if (!signed) throw new AppError(401, 'unauthorized', SLACK_SIGNATURE_REFUSED_MESSAGE);
      let json: unknown;
      try {
        json = JSON.parse(request.body);
      } catch {
        throw new AppError(400, 'bad_request', 'The body is not JSON');
      }
      const envelope = slackEnvelope.safeParse(json);
      // Event types Parley does not subscribe to are acknowledged, so Slack does not retry them.
      if (!envelope.success) return { ok: true };
      if (envelope.data.type === 'url_verification') return { challenge: envelope.data.challenge, ok: true };
      const outcome = await applySlackEvent(ctx.database.db, envelope.data);
      request.log.info({ eventId: envelope.data.event_id, outcome, retry: header('x-slack-retry-num') }, 'Slack event');
      return { ok: true };
    },
  );
  return Promise.resolve();
};
