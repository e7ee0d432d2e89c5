import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { templateWebhookIntegrations, templateWebhookKeyIsValid, templateWebhookPath } from '../webhookLink.js';
import { crmContact } from '../webhookPayloads.js';
import { sendFromWebhook } from '../webhookSend.js';

const FORM = 'application/x-www-form-urlencoded';
export const WEBHOOK_KEY_REFUSED_MESSAGE = "The link's key is not valid. Copy the template's web-hook link from Parley again.";

const params = z.object({ templateId: z.string().max(64) });
const query = z.object({
  user: z.string({ message: 'Required' }).max(64),
  group: z.string().max(64).optional(),
  key: z.string({ message: 'Required' }).max(128),
});
const body = z.record(z.string(), z.unknown()).nullish();
const sentSchema = z.object({
  data: z.object({
    contactId: z.uuid(),
    messages: z.array(z.object({ id: z.uuid(), status: z.string() })),
    /** What the account was charged, USD with 4 decimals. */
    charged: z.string(),
  }),
});
const errors = { 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * The web-hook links of Web templates (docs/optIn.md), outside /v1 as the format has it:
 * POST /{hubspot|activecampaign}/v1/webhook/{templateId}?user=&group=&key=. Public (a CRM has no token of
 * ours): the link's key, an HMAC Parley made for this template, user and group, is the credential, checked
 * before the database is read (modules/templates/webhookLink.ts). HubSpot posts JSON, ActiveCampaign a form.
 */
export const templateWebhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  // Scoped to this plugin: ActiveCampaign's fields (`contact[phone]` ...), kept flat as their names say.
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, raw, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof raw === 'string' ? raw : raw.toString('utf8'))));
  });

  for (const integration of templateWebhookIntegrations) {
    app.post(
      templateWebhookPath(integration),
      {
        schema: {
          tags: ['templates'],
          summary: `Send a Web template to the contact of a ${integration === 'hubspot' ? 'HubSpot workflow' : 'ActiveCampaign'} web-hook call`,
          consumes: ['application/json', FORM],
          params,
          querystring: query,
          body,
          response: { 200: sentSchema, ...errors },
        },
        config: { permission: 'public' },
      },
      async (request) => {
        const target = {
          templateId: request.params.templateId,
          userId: request.query.user,
          groupId: request.query.group === undefined || request.query.group === '' ? null : request.query.group,
        };
        if (!(await templateWebhookKeyIsValid(ctx.config.secrets, target, request.query.key))) {
          throw new AppError(403, 'forbidden', WEBHOOK_KEY_REFUSED_MESSAGE);
        }
        const result = await sendFromWebhook(ctx.database.db, target, crmContact(integration, request.body));
        request.log.info({ templateId: target.templateId, integration, messages: result.messages.length }, 'template web-hook sent');
        return {
          data: {
            contactId: result.contactId,
            messages: result.messages.map((m) => ({ id: m.id, status: m.status })),
            charged: result.charged,
          },
        };
      },
    );
  }
  return Promise.resolve();
};
