import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  saveTemplateSchema,
  successResponseSchema,
  templateCreatedSchema,
  templateListQuerySchema,
  templateRecordSchema,
  templateSelectionListSchema,
  templateWebhookLinksRecordSchema,
  templateWebhookQuerySchema,
} from '@parley/shared';
import {
  createTemplate,
  findTemplate,
  listTemplates,
  removeTemplate,
  TEMPLATE_NOT_FOUND,
  templateWebhookLinks,
  updateTemplate,
} from '../templateManager.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { templateViewer } from '../visibility.js';
import { presentTemplate, presentTemplateFields } from '../templatePresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const templateParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export const templateRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const tags = ['templates'];

  app.get(
    '/accounts/:acc/templates',
    {
      schema: {
        tags,
        summary: 'The templates the caller sees (private ones only to their maker and administrators), by name',
        params: accountParams,
        querystring: templateListQuerySchema,
        response: { 200: templateSelectionListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const viewer = templateViewer(principalOf(request), membershipOf(request));
      const { accountId } = membershipOf(request);
      const { offset, limit, fields } = request.query;
      const { rows, totalCount } = await listTemplates(db, accountId, viewer, request.query);
      return { data: rows.map((row) => presentTemplateFields(row, fields)), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/templates',
    {
      schema: {
        tags,
        summary: 'Add a template (SMS, Web or OptIn); tokens must be contact fields or attributes of the account',
        description: 'Answers the template in a list of one (`{ success, data: [template] }`), as the hosted product does.',
        params: accountParams,
        body: saveTemplateSchema,
        response: { 201: templateCreatedSchema, ...errors },
      },
      config: { permission: 'templates.write' },
    },
    async (request, reply) => {
      const viewer = templateViewer(principalOf(request), membershipOf(request));
      const row = await createTemplate(db, membershipOf(request).accountId, viewer, request.body);
      return reply.code(201).send({ success: true, data: [presentTemplate(row)] });
    },
  );

  app.get(
    '/accounts/:acc/templates/:id',
    {
      schema: { tags, summary: 'One template', params: templateParams, response: { 200: templateRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const viewer = templateViewer(principalOf(request), membershipOf(request));
      const row = await findTemplate(db, membershipOf(request).accountId, viewer, request.params.id);
      if (!row) throw notFound(TEMPLATE_NOT_FOUND);
      return { data: presentTemplate(row) };
    },
  );

  app.put(
    '/accounts/:acc/templates/:id',
    {
      schema: {
        tags,
        summary: 'Replace a template (its name, type, text, media, privacy and OptIn list)',
        params: templateParams,
        body: saveTemplateSchema,
        response: { 200: templateRecordSchema, ...errors },
      },
      config: { permission: 'templates.write' },
    },
    async (request) => {
      const viewer = templateViewer(principalOf(request), membershipOf(request));
      const row = await updateTemplate(db, membershipOf(request).accountId, viewer, request.params.id, request.body);
      return { data: presentTemplate(row) };
    },
  );

  app.delete(
    '/accounts/:acc/templates/:id',
    {
      schema: {
        tags,
        summary: 'Remove a template; answers { success: true }',
        params: templateParams,
        response: { 200: successResponseSchema, ...errors },
      },
      config: { permission: 'templates.write' },
    },
    async (request) => {
      const viewer = templateViewer(principalOf(request), membershipOf(request));
      await removeTemplate(db, membershipOf(request).accountId, viewer, request.params.id);
      return { success: true as const };
    },
  );
  app.get(
    '/accounts/:acc/templates/:id/webhooks',
    {
      schema: {
        tags,
        summary:
          "A Web template's web-hook links (HubSpot, ActiveCampaign), signed for the member the messages go out as and the group or number that sends",
        params: templateParams,
        querystring: templateWebhookQuerySchema,
        response: { 200: templateWebhookLinksRecordSchema, ...errors },
      },
      // Whoever holds a link sends at the account's expense: handing links out is managing templates.
      config: { permission: 'templates.write' },
    },
    async (request) => {
      const viewer = templateViewer(principalOf(request), membershipOf(request));
      const links = await templateWebhookLinks(db, ctx.config, membershipOf(request).accountId, viewer, request.params.id, request.query);
      return { data: links };
    },
  );
  return Promise.resolve();
};
