import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  linkListQuerySchema,
  linkListSchema,
  linkRecordSchema,
  saveLinkSchema,
  shortenedTextRecordSchema,
  shortenTextSchema,
} from '@parley/shared';
import { requireChargeableAccount } from '../../billing/index.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { createLink, findLink, LINK_NOT_FOUND, listLinks, removeLink, updateLink } from '../linkManager.js';
import { linksRuntime } from '../linksRuntime.js';
import { previewShortLinks } from '../autoShorten.js';
import { presentLink } from '../linkPresenter.js';
import { trackingCsv } from '../trackingCsv.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const linkParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const linkRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const runtime = linksRuntime(ctx.database, ctx.config, ctx.log);
  const tags = ['links'];

  app.get(
    '/accounts/:acc/links',
    {
      schema: {
        tags,
        summary: "The account's short links, oldest first; `name` finds those whose name contains it (the link picker asks for 10)",
        params: accountParams,
        querystring: linkListQuerySchema,
        response: { 200: linkListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit, name } = request.query;
      const { rows, totalCount } = await listLinks(db, accountId, { offset, limit, name });
      return { data: rows.map((row) => presentLink(row, runtime.shared)), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/links',
    {
      schema: {
        tags,
        summary:
          "Add a short link on the shared domain or a verified custom domain; the server makes its code. 402 `trial_expired` once the account's trial has run out",
        params: accountParams,
        body: saveLinkSchema,
        response: { 201: linkRecordSchema, ...errors },
      },
      config: { permission: 'links.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const userId = principal.clientId === undefined ? principal.userId : null;
      // A link is made for sending, which an expired trial may no longer do (docs/decisions.md).
      await requireChargeableAccount(db, accountId, new Date());
      const row = await createLink(ctx.database.db, { accountId, userId, sharedDomainId: runtime.shared.id }, request.body);
      return reply.code(201).send({ data: presentLink(row, runtime.shared) });
    },
  );

  app.post(
    '/accounts/:acc/links/shorten',
    {
      schema: {
        tags,
        summary:
          "A message's text as it would be sent with the account's auto link shortening (the editor's preview): makes no link; one not made yet shows a code of x",
        params: accountParams,
        body: shortenTextSchema,
        response: { 200: shortenedTextRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: await previewShortLinks(db, accountId, request.body.text) };
    },
  );

  app.get(
    '/accounts/:acc/links/:id',
    {
      schema: { tags, summary: 'One short link', params: linkParams, response: { 200: linkRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await findLink(db, accountId, request.params.id);
      if (!row) throw notFound(LINK_NOT_FOUND);
      return { data: presentLink(row, runtime.shared) };
    },
  );

  app.get(
    '/accounts/:acc/links/:id/tracking',
    {
      schema: {
        tags,
        summary: "A tracked link's clicks by recipient as a CSV file (contact, number, message, first click, clicks)",
        params: linkParams,
        produces: ['text/csv'],
        // A string with a text/csv content type is sent as it is, never serialised as JSON.
        response: { 200: z.string().describe('CSV: contact,number,message,first click,clicks'), ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const csv = await trackingCsv(db, accountId, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="contact-tracking.csv"')
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.put(
    '/accounts/:acc/links/:id',
    {
      schema: {
        tags,
        summary: "Replace a link's name, destination, domain and tracking (its code stays, so sent links keep working)",
        params: linkParams,
        body: saveLinkSchema,
        response: { 200: linkRecordSchema, ...errors },
      },
      config: { permission: 'links.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await updateLink(ctx.database.db, accountId, runtime.shared.id, request.params.id, request.body);
      runtime.cache.forget(row.code);
      return { data: presentLink(row, runtime.shared) };
    },
  );

  app.delete(
    '/accounts/:acc/links/:id',
    {
      schema: { tags, summary: 'Remove a short link: its code then answers 404', params: linkParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'links.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      runtime.cache.forget(await removeLink(ctx.database.db, accountId, request.params.id));
      return reply.code(204).send(null);
    },
  );
  return Promise.resolve();
};
