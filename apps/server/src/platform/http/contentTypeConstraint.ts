import type { FastifyInstance } from 'fastify';

type ConstraintStrategy = Parameters<FastifyInstance['addConstraintStrategy']>[0];
type RouteHandler = Parameters<ReturnType<ConstraintStrategy['storage']>['set']>[1];

/** The media type of a Content-Type header, in lower case and without its parameters ('' when none). */
export function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/**
 * The router's `contentType` constraint: a route declared with `constraints: { contentType: 'text/csv' }`
 * answers the requests of that media type, and the same method and path without the constraint answers all
 * the others. The hosted product's API gives one path two bodies (`POST .../contacts` creates a contact
 * from JSON and imports a CSV file), and this keeps them two routes, each with its own schema, permission
 * and body parser, rather than one handler that branches on the header.
 */
export const contentTypeConstraint: ConstraintStrategy = {
  name: 'contentType',
  // A media type no route names goes to the route without the constraint (which answers 415 if it has no parser).
  mustMatchWhenDerived: false,
  storage() {
    const handlers = new Map<unknown, RouteHandler>();
    return {
      get: (type) => handlers.get(type) ?? null,
      set: (type, handler) => {
        handlers.set(type, handler);
      },
    };
  },
  deriveConstraint: (request) => mediaTypeOf(request.headers['content-type']),
};
