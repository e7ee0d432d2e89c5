import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Role } from '@parley/shared';
import type { Principal } from './authenticator.js';
import { bearerToken } from './authenticator.js';
import { cachedRoleInAccount, openAccountsOf } from './memberships.js';
import { authorize } from '../../platform/policies/index.js';
import type { AppContext } from '../../platform/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { ApiRateLimits } from '../../platform/http/rateLimit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route whose permission is not 'public'. */
    principal: Principal | null;
    /** Set for capability routes: the account of `:acc` and the principal's role in it. */
    membership: { accountId: string; role: Role } | null;
  }
}

const accountParam = z.uuid();

export const SIGN_IN_REQUIRED = 'Sign in to continue.';

/**
 * The one gate of the API, run before validation so a caller without a token never learns about the
 * shape of a request. Accounts come from the path, never from the body; a record or account the
 * principal has no part in answers 404, and a role the table refuses answers 403. Requests that need a
 * token spend from their address's and their credential's allowances (rateLimit.ts).
 */
export async function guardRequest(ctx: AppContext, limits: ApiRateLimits, request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  request.principal = null;
  request.membership = null;
  const permission = request.routeOptions.config.permission;
  if (permission === undefined || permission === 'public') return;

  limits.spendAddress(request);
  const token = bearerToken(request.headers.authorization);
  const principal = token === null ? null : await ctx.authenticator.authenticate(token);
  if (principal === null) throw new AppError(401, 'unauthorized', SIGN_IN_REQUIRED);
  limits.spendCredential(principal);
  request.principal = principal;
  if (permission === 'authenticated') return;

  const accountId =
    request.routeOptions.config.accountFrom === 'token'
      ? await tokenAccount(ctx, principal, (request.query as Record<string, unknown> | undefined)?.accountId)
      : (request.params as Record<string, unknown> | undefined)?.acc;
  const parsed = accountParam.safeParse(accountId);
  if (!parsed.success) throw notFound('The account');
  const role = await cachedRoleInAccount(ctx.database.db, principal, parsed.data);
  authorize(role, permission);
  request.membership = { accountId: parsed.data, role };
}

export const NAME_THE_ACCOUNT_MESSAGE =
  'This token reaches several accounts: name one with ?accountId=, or use the route under /v1/accounts/{accountId}.';

/**
 * The account of a route that names none (the hosted product's /v1/tools/sharefile): the one `?accountId=`
 * names, else the token's only account (an API client's always is). A person in several accounts must name
 * one: guessing would put a file in an account they did not mean (docs/api.md, "Which account").
 */
async function tokenAccount(ctx: AppContext, principal: Principal, named: unknown): Promise<unknown> {
  if (named !== undefined) return named;
  const reachable = await openAccountsOf(ctx.database.db, principal, 2);
  if (reachable.length > 1) throw new AppError(400, 'bad_request', NAME_THE_ACCOUNT_MESSAGE);
  return reachable[0];
}

/** The principal of a route that is not public (the guard has set it). */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError(401, 'unauthorized', SIGN_IN_REQUIRED);
  return request.principal;
}

/** The account and role of a capability route (the guard has set them). */
export function membershipOf(request: FastifyRequest): { accountId: string; role: Role } {
  if (request.membership === null) throw notFound('The account');
  return request.membership;
}
