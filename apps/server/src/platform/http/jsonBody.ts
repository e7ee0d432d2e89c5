import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.js';

export const JSON_BODY_REQUIRED_MESSAGE = 'The request needs a JSON body.';

/** Whether the route's body schema refuses a request without a body (a route without one takes any). */
function needsBody(request: FastifyRequest): boolean {
  const schema: unknown = request.routeOptions.schema?.body;
  return schema instanceof z.ZodType && !schema.safeParse(undefined).success;
}

/**
 * The JSON body parser: Fastify's own (the same limits, and a body naming `__proto__` or `constructor.prototype`
 * refused), except that an empty body is no body. Many HTTP clients send `Content-Type: application/json`
 * with every request, also a DELETE or a PUT that carries nothing, and Fastify refuses those with 400. A
 * route that takes no body now answers them; one that needs a body answers 400 validation_failed (before
 * its schema would, with a message about the body as a whole); malformed JSON, whitespace alone included,
 * is still 400 bad_request.
 */
export function acceptEmptyJsonBodies(app: Pick<FastifyInstance, 'addContentTypeParser' | 'getDefaultJsonParser'>): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body.length > 0) {
      void parseJson(request, body, done);
      return;
    }
    if (needsBody(request)) done(new AppError(400, 'validation_failed', JSON_BODY_REQUIRED_MESSAGE), undefined);
    else done(null, undefined);
  });
}
