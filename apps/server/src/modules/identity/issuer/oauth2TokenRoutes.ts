import { oauth2TokenErrorSchema, oauth2TokenRequestSchema, oauth2TokenResponseSchema } from '@parley/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { basicCredentials, exchangeClientCredentials } from './oauth2Token.js';
import { RateLimiter } from './rateLimiter.js';

/** The hosted product's token endpoint, which its API clients call (docs/api.md, "Compatibility"). */
export const OAUTH2_TOKEN_PATH = '/oauth2/token';

/** Refused client credentials per client address and window, in this process, as for sign-ins. */
const FAILED_TOKEN_REQUESTS_PER_CLIENT = 20;
const FAILED_TOKEN_WINDOW_MS = 5 * 60_000;

const refuse = (reply: FastifyReply, status: number, error: string, description: string): FastifyReply =>
  reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });

/**
 * POST /oauth2/token: `client_credentials` with a JSON or form body, the client's id and secret in the body
 * or as HTTP Basic authentication. Answers and refuses as an OAuth 2 token endpoint does (RFC 6749), since
 * OAuth client libraries read those fields; the tokens come from the embedded issuer.
 */
export const oauth2TokenRoutes: FastifyPluginAsyncZod = (app) => {
  const failures = new RateLimiter(FAILED_TOKEN_REQUESTS_PER_CLIENT, FAILED_TOKEN_WINDOW_MS);

  app.post(
    OAUTH2_TOKEN_PATH,
    {
      schema: {
        summary: 'Get an access token for an API client (client_credentials)',
        tags: ['Compatibility'],
        body: oauth2TokenRequestSchema.optional(),
        response: { 200: oauth2TokenResponseSchema, 400: oauth2TokenErrorSchema, 401: oauth2TokenErrorSchema, 429: oauth2TokenErrorSchema },
      },
      // The refusal is RFC 6749's, not the API's own error body.
      attachValidation: true,
      config: { permission: 'public' },
    },
    async (request, reply) => {
      if (failures.isOver(request.ip)) {
        reply.header('retry-after', String(FAILED_TOKEN_WINDOW_MS / 1000));
        return refuse(reply, 429, 'slow_down', 'Too many refused requests. Wait a few minutes and try again.');
      }
      const parsed = oauth2TokenRequestSchema.safeParse(request.body);
      if (request.validationError || !parsed.success) {
        const grantType = (request.body as { grant_type?: unknown } | undefined)?.grant_type;
        return typeof grantType === 'string' && grantType !== 'client_credentials'
          ? refuse(reply, 400, 'unsupported_grant_type', 'Only grant_type client_credentials is supported')
          : refuse(reply, 400, 'invalid_request', 'Send grant_type client_credentials with client_id and client_secret');
      }
      const { client_id: clientId, client_secret: secret } = parsed.data;
      const header = request.headers.authorization;
      const authorization =
        clientId !== undefined && secret !== undefined ? basicCredentials(clientId, secret) : header?.startsWith('Basic ') ? header : null;
      if (authorization === null) {
        failures.take(request.ip);
        return refuse(reply, 401, 'invalid_client', 'Send client_id and client_secret, in the body or as Basic authentication');
      }
      const answer = await exchangeClientCredentials(app, authorization);
      if (answer.status !== 200 && answer.body.error === 'invalid_client') failures.take(request.ip);
      return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
    },
  );
  return Promise.resolve();
};
