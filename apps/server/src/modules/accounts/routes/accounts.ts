import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountListResponseSchema,
  accountResponseSchema,
  can,
  closeAccountSchema,
  createAccountSchema,
  errorBodySchema,
  listQuerySchema,
  updateAccountOptionsSchema,
  updateAccountSchema,
  type Role,
} from '@parley/shared';
import { accountBillingOf, loadAccount } from '../../billing/index.js';
import { listAccountsOf } from '../queries.js';
import { closeAccount } from '../accountCloser.js';
import { createAccountFor, newAccountFromForm } from '../accountCreator.js';
import { embeddedFirstNumbers } from '../../phoneNumbers/index.js';
import { knowSharedDomain } from '../../links/index.js';
import { updateAccountOptions, updateAccountSettings } from '../accountSettings.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { API_CLIENTS_CANNOT_CREATE_ACCOUNTS, peopleOnly } from '../../identity/index.js';
import { presentAccount, presentAccountSummary } from '../accountPresenter.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

const accountParams = z.object({ acc: z.string() });

export const accountRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const shared = knowSharedDomain(ctx.config.links, ctx.config.publicUrl);

  const accountAnswer = async (accountId: string, role: Role) => {
    const found = await loadAccount(db, accountId);
    if (!found) throw notFound('The account');
    const billing = can(role, 'billing.view') ? await accountBillingOf(ctx, accountId, found.account.options) : null;
    return { data: presentAccount(found, role, billing) };
  };

  app.get(
    '/accounts',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The accounts the caller may act in, with its role in each',
        querystring: listQuerySchema,
        response: { 200: accountListResponseSchema, ...errors },
      },
      config: { permission: 'authenticated' },
    },
    async (request) => {
      const page = request.query;
      const { rows, totalCount } = await listAccountsOf(db, principalOf(request), page);
      return { data: rows.map(presentAccountSummary), pagination: { totalCount, ...page } };
    },
  );

  app.post(
    '/accounts',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Create an account on the Trial plan, with the caller as Administrator',
        body: createAccountSchema,
        response: { 201: accountResponseSchema, ...errors },
      },
      config: { permission: 'authenticated' },
      preValidation: peopleOnly(API_CLIENTS_CANNOT_CREATE_ACCOUNTS),
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const created = await createAccountFor(
        db,
        newAccountFromForm(userId, request.body),
        ctx.config.billing.trialCredit,
        embeddedFirstNumbers(ctx),
      );
      return reply.code(201).send(await accountAnswer(created.id, 'Administrator'));
    },
  );

  app.get(
    '/accounts/:acc',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The account',
        params: accountParams,
        response: { 200: accountResponseSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    (request) => {
      const { accountId, role } = membershipOf(request);
      return accountAnswer(accountId, role);
    },
  );

  app.put(
    '/accounts/:acc',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Change the name, defaults and support details',
        params: accountParams,
        body: updateAccountSchema,
        response: { 200: accountResponseSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request) => {
      const { accountId, role } = membershipOf(request);
      await updateAccountSettings(db, accountId, request.body);
      return accountAnswer(accountId, role);
    },
  );

  app.put(
    '/accounts/:acc/options',
    {
      schema: {
        tags: ['accounts'],
        summary:
          'Turn account options on or off (the options sent are merged); autoLinkShorten: the id of the short domain or a verified custom domain, null for off',
        params: accountParams,
        body: updateAccountOptionsSchema,
        response: { 200: accountResponseSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request) => {
      const { accountId, role } = membershipOf(request);
      await updateAccountOptions(db, accountId, request.body, shared.id);
      return accountAnswer(accountId, role);
    },
  );

  app.post(
    '/accounts/:acc/close',
    {
      schema: {
        tags: ['accounts'],
        summary: 'Close the account; its users lose access to it',
        params: accountParams,
        body: closeAccountSchema,
        response: { 204: z.null(), ...errors },
      },
      config: { permission: 'account.close' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      await closeAccount(db, { accountId, closedBy: principalOf(request).userId, feedback: request.body.feedback });
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};
