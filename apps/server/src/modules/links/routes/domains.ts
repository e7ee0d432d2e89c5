import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addCustomDomainSchema,
  customDomainListQuerySchema,
  customDomainListSchema,
  customDomainRecordSchema,
  domainVerificationFailedMessage,
  domainVerifiedMessage,
  errorBodySchema,
  verifyCustomDomainSchema,
  verifyResultSchema,
} from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { pointsHere } from '../dnsCheck.js';
import { addDomain, DOMAIN_NOT_FOUND, findDomain, listDomains, recordCheck, removeDomain } from '../domainManager.js';
import { presentDomain } from '../domainPresenter.js';
import { linksRuntime } from '../linksRuntime.js';
import { presentSharedDomain } from '../sharedDomains.js';

const accountParams = z.object({ acc: z.uuid() });
const domainParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const domainRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const config = ctx.config.links;
  const runtime = linksRuntime(ctx.database, ctx.config, ctx.log);
  const reserved = [config.shortDomain, new URL(ctx.config.publicUrl).hostname].filter((d): d is string => d !== null);
  const tags = ['links'];

  app.get(
    '/accounts/:acc/domains',
    {
      schema: {
        tags,
        summary: "The account's custom domains with the DNS records each needs; shared=1: the deployment's shared domains",
        params: accountParams,
        querystring: customDomainListQuerySchema,
        response: { 200: customDomainListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit, shared } = request.query;
      if (shared === '1') return { data: [presentSharedDomain(runtime.shared)], pagination: { totalCount: 1, offset: 0, limit } };
      const { rows, totalCount } = await listDomains(db, accountId, { offset, limit });
      return { data: rows.map((row) => presentDomain(row, config)), pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/domains',
    {
      schema: {
        tags,
        summary: 'Add a custom domain (http://, https:// and www. are stripped); verify it next',
        params: accountParams,
        body: addCustomDomainSchema,
        response: { 201: customDomainRecordSchema, ...errors },
      },
      config: { permission: 'links.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const row = await addDomain(ctx.database.db, accountId, request.body.domain, reserved);
      return reply.code(201).send({ data: presentDomain(row, config) });
    },
  );

  app.put(
    '/accounts/:acc/domains/verify',
    {
      schema: {
        tags,
        summary: "Check a custom domain's DNS now: verified (renewAt a week ahead) or not yet, with the message to show",
        params: accountParams,
        body: verifyCustomDomainSchema,
        response: { 200: verifyResultSchema, ...errors },
      },
      config: { permission: 'links.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await findDomain(db, accountId, request.body);
      if (!row) throw notFound(DOMAIN_NOT_FOUND);
      const passed = await pointsHere(row.domain, config);
      const checked = await recordCheck(ctx.database.db, row, passed);
      await runtime.hosts.refresh();
      const message = passed ? domainVerifiedMessage(row.domain) : domainVerificationFailedMessage(row.domain);
      return { data: { ...presentDomain(checked, config), ...(passed ? {} : { renewAt: null }) }, verified: passed, message };
    },
  );

  app.delete(
    '/accounts/:acc/domains/:id',
    {
      schema: { tags, summary: 'Remove a custom domain no link uses', params: domainParams, response: { 204: z.null(), ...errors } },
      config: { permission: 'links.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await removeDomain(ctx.database.db, accountId, request.params.id);
      await runtime.hosts.refresh();
      return reply.code(204).send(null);
    },
  );

  /** Caddy's on_demand_tls `ask` (docs/deployment.md): a certificate only for a verified short host. */
  app.get(
    '/tls/ask',
    {
      schema: { tags, summary: 'Whether this deployment serves the domain (200) or not (404): for the reverse proxy\'s on-demand TLS', querystring: z.object({ domain: z.string().max(253) }) },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const domain = request.query.domain.toLowerCase();
      // Not known here: perhaps verified on another process since this one last read the list.
      if (!runtime.hosts.has(domain)) await runtime.hosts.refresh();
      const known = runtime.hosts.has(domain);
      return reply.code(known ? 200 : 404).type('text/plain').send(known ? 'ok' : 'unknown');
    },
  );
  return Promise.resolve();
};
