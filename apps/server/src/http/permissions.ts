/**
 * What a route requires, declared on every /v1 route as `config.permission`. 'public' needs no token;
 * capabilities of the role table join this union when identity arrives.
 */
export type RoutePermission = 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
  }
}
