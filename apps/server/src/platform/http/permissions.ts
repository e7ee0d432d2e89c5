import type { Capability } from '@parley/shared';

/**
 * What a route requires, declared on every /v1 route as `config.permission` (a test fails on a route
 * without one): 'public' needs no token; 'authenticated' needs a valid bearer token; a capability
 * also needs a role in the account of the route's `:acc` parameter that the permission table allows.
 */
export type RoutePermission = 'public' | 'authenticated' | Capability;

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
  }
}
