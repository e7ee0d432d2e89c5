import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONVERSATION_NOT_FOUND_MESSAGE,
  contractScreenshotQuerySchema,
  conversationScreenshotQuerySchema,
  errorBodySchema,
  SCREENSHOT_MESSAGES_MAX,
  screenshotQuerySchema,
  type ScreenshotQuery,
} from '@parley/shared';
import type { FastifyRequest } from 'fastify';
import { membershipOf, principalOf } from '../../identity/index.js';
import { createMediaServices } from '../../media/index.js';
import { conversationViewer } from '../../messaging/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { DrawLimit } from '../drawLimit.js';
import { conversationScreenshotModel } from '../conversationScreenshot.js';
import type { ScreenshotDeps } from '../pictures.js';
import { renderScreenshot, type RenderedScreenshot } from '../renderScreenshot.js';
import { sampleScreenshotModel } from '../sampleScreenshot.js';

const accountParams = z.object({ acc: z.uuid() });
// Not checked as a UUID: a malformed id is simply not found, like another account's.
const conversationParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const png = { 200: z.string().describe('PNG'), ...errors };

const sampleDescription =
  `An iPhone messages screen with up to ${String(SCREENSHOT_MESSAGES_MAX)} sample messages as PNG, 390 pixels wide at ` +
  'scale 1 (780 at 2). Repeat `messages`, `outgoing` (true or false) and optionally `pictures` once per message, in ' +
  'order; a picture is the `id` of a file uploaded with tools/sharefile (resized to 500), never a URL.';

/** A PNG the caller alone may keep: made for this token, from the account's data. */
function sendPng(reply: FastifyReply, shot: RenderedScreenshot, fileName: string): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'image/png')
    .header('content-disposition', `inline; filename="${fileName}"`)
    .header('cache-control', 'private')
    .send(shot.png);
}

/**
 * The screenshot generator (docs/tools.md): the tool's sample messages, on the account's path (the web app) and
 * the hosted product's `/v1/tools/screenshots/ios` (the token's account), and a real conversation's screenshot.
 */
export const screenshotRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const tags = ['tools'];
  const media = ctx.media ?? createMediaServices(ctx.config);
  const deps: ScreenshotDeps = { db: ctx.database.db, media };
  const drawing = new DrawLimit();

  const sample = async (request: FastifyRequest, reply: FastifyReply, query: ScreenshotQuery): Promise<FastifyReply> => {
    const model = await sampleScreenshotModel(deps, membershipOf(request).accountId, query);
    return sendPng(reply, await drawing.run(() => renderScreenshot(model, query.scale)), 'screenshot.png');
  };

  app.get(
    '/accounts/:acc/tools/screenshots/ios',
    {
      schema: { tags, summary: 'A screenshot of sample messages on an iPhone', description: sampleDescription, params: accountParams, querystring: screenshotQuerySchema, produces: ['image/png'], response: png },
      config: { permission: 'account.view' },
    },
    async (request, reply) => sample(request, reply, request.query),
  );

  app.get(
    '/tools/screenshots/ios',
    {
      schema: {
        tags,
        summary: "A screenshot of sample messages: the hosted API's path, in the token's account",
        description: `${sampleDescription} A person in several accounts names one with \`accountId\`.`,
        querystring: contractScreenshotQuerySchema,
        produces: ['image/png'],
        response: png,
      },
      config: { permission: 'account.view', accountFrom: 'token' },
    },
    async (request, reply) => sample(request, reply, request.query),
  );

  app.get(
    '/accounts/:acc/conversations/:id/screenshot',
    {
      schema: {
        tags: ['conversations'],
        summary: "A screenshot of the conversation's last messages (or those named), as PNG",
        description:
          `The newest \`count\` messages (at most ${String(SCREENSHOT_MESSAGES_MAX)}), or those \`messageIds\` names, oldest first. ` +
          '`mask=true` shows the contact as initials and the last 4 digits of the number. Times in `timeZone` (IANA, default UTC).',
        params: conversationParams,
        querystring: conversationScreenshotQuerySchema,
        produces: ['image/png'],
        response: png,
      },
      config: { permission: 'account.view' },
    },
    async (request, reply) => {
      const membership = membershipOf(request);
      const viewer = conversationViewer(principalOf(request), membership);
      const model = await conversationScreenshotModel(deps, membership.accountId, viewer, request.params.id, request.query);
      if (model === null) throw new AppError(404, 'not_found', CONVERSATION_NOT_FOUND_MESSAGE);
      return sendPng(reply, await drawing.run(() => renderScreenshot(model, request.query.scale)), 'conversation.png');
    },
  );
  return Promise.resolve();
};
