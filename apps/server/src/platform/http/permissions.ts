import type { Capability } from '@parley/shared';

/**
 * What a route requires, declared on every /v1 route as `config.permission` (a test fails on a route
 * without one): 'public' needs no token; 'authenticated' needs a valid bearer token; a capability
 * also needs a role in the account of the route's `:acc` parameter that the permission table allows.
 */
export type RoutePermission = 'public' | 'authenticated' | Capability;

/**
 * Where a capability route's account comes from: its `:acc` parameter ('path', the rule), or the token
 * ('token') for the hosted product's routes that name no account (`/v1/tools/sharefile`): the token's only
 * account, or the one its `?accountId=` names (docs/api.md, "Which account").
 */
export type RouteAccountSource = 'path' | 'token';

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    accountFrom?: RouteAccountSource;
  }
}
