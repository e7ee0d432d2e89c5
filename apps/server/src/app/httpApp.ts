import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import type { Logger } from 'pino';
import type { Provider } from 'oidc-provider';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import type { ErrorBody } from '@parley/shared';
import { guardRequest } from '../modules/identity/index.js';
import { acceptEmptyJsonBodies } from '../platform/http/jsonBody.js';
import { contentTypeConstraint } from '../platform/http/contentTypeConstraint.js';
import { securityHeadersHook } from '../platform/http/securityHeaders.js';
import { fastifyTrustProxy } from '../platform/http/clientAddress.js';
import { AppError, codeForStatus, INTERNAL_ERROR_MESSAGE } from '../platform/errors.js';
import type { AppContext } from '../platform/context.js';
import type { RouteAccountSource, RoutePermission } from '../platform/http/permissions.js';
import { ApiRateLimits, RateLimitedError } from '../platform/http/rateLimit.js';
import { requestValidatorCompiler } from '../platform/http/validation.js';
import { issuerRoutes } from '../modules/identity/index.js';
import { registerIdempotency } from '../platform/http/idempotency.js';
import { devRoutes } from '../modules/system/index.js';
import { templateWebhookRoutes } from '../modules/templates/index.js';
import { systemRoutes } from '../modules/system/index.js';
import { redirectRoutes, shortHostHook } from '../modules/links/index.js';
import { v1Routes } from './v1Routes.js';
import { addApiGuide, HOSTED_API_TAG } from './apiGuide.js';

export const webDistDir = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** Paths the server answers itself; everything else is the web app's, which shows its own 404. */
const SERVER_PATHS = /^\/(v1|docs|healthz|readyz|oidc|socket\.io|dev|r)(\/|$|\?)/;

const API_DESCRIPTION = [
  'The API of Parley, a self-hostable hub for business text messaging. Every error answers ' +
    '`{ "error": { "code", "message" } }`.',
  '',
  'Start with an access token: create an API client (account settings, Plan tab, API credentials), then ' +
    '`POST /oauth2/token` with its id and secret; send it as `Authorization: Bearer <token>`. The calls ' +
    'with examples below show a send, a contact and paging.',
  '',
  `Operations tagged **${HOSTED_API_TAG}** also answer the hosted product's REST API v1 as it documents ` +
    'them, so its clients move to Parley by changing the base URL.',
].join('\n');

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function errorBody(code: ErrorBody['error']['code'], message: string): ErrorBody {
  return { error: { code, message } };
}

export interface RouteRecord {
  method: string;
  url: string;
  permission: RoutePermission | undefined;
  /** Where a capability route's account comes from (platform/http/permissions.ts); the path unless said. */
  accountFrom: RouteAccountSource;
}

const routeTables = new WeakMap<object, RouteRecord[]>();

/** Every route the app registered, with its declared permission (the route-table test reads it). */
export function routeTable(app: App): readonly RouteRecord[] {
  return routeTables.get(app) ?? [];
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  Logger,
  ZodTypeProvider
>;

export interface BuildAppOptions {
  webDist?: string | null;
  /** The embedded OpenID Connect issuer, mounted at /oidc; null or absent with an external issuer. */
  issuer?: Provider | null;
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<App> {
  const app = Fastify({
    loggerInstance: ctx.log,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  const records: RouteRecord[] = [];
  routeTables.set(app, records);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const accountFrom = route.config?.accountFrom ?? 'path';
    for (const method of methods) records.push({ method, url: route.url, permission: route.config?.permission, accountFrom });
  });

  app.addConstraintStrategy(contentTypeConstraint);
  app.setValidatorCompiler(requestValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  acceptEmptyJsonBodies(app);
  // First of the hooks, so answers that end early (the guard's 401, a 404) carry the headers too.
  app.addHook('onRequest', securityHeadersHook(ctx.config));
  // Before the guard: on a short-link host (docs/links.md) `GET /{code}` is a redirect, not a page.
  app.addHook('onRequest', shortHostHook(ctx));

  // While draining, answers tell keep-alive clients to go, so closing does not wait on idle sockets.
  let draining = false;
  app.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('membership', null);
  const limits = new ApiRateLimits(ctx.config.apiRateLimit);
  app.addHook('onRequest', async (request, reply) => {
    await guardRequest(ctx, limits, request, reply);
  });
  registerIdempotency(app, ctx.database);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = error.validation
        .map((issue) => {
          const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
          return where ? `${where}: ${issue.message}` : issue.message;
        })
        .join('; ');
      return reply.code(400).send(errorBody('validation_failed', message || 'The request is not valid.'));
    }
    if (error instanceof RateLimitedError) void reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send(errorBody(error.code, error.message));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.code(500).send(errorBody('internal_error', INTERNAL_ERROR_MESSAGE));
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(errorBody(codeForStatus(status), INTERNAL_ERROR_MESSAGE));
    }
    return reply.code(status).send(errorBody(codeForStatus(status), error.message));
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley API',
        description: API_DESCRIPTION,
        version: ctx.config.version,
      },
      servers: [{ url: ctx.config.publicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) => addApiGuide(jsonSchemaTransformObject(documentObject), ctx.config.publicUrl),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/v1/openapi.json', docExpansion: 'list', deepLinking: true },
  });

  await app.register(systemRoutes, { ctx });
  await app.register(redirectRoutes, { ctx });
  await app.register(v1Routes, { prefix: '/v1', ctx });
  await app.register(devRoutes, { ctx });
  await app.register(templateWebhookRoutes, { ctx });
  if (options.issuer) await app.register(issuerRoutes, { ctx, provider: options.issuer });
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { permission: 'public' } }, () => app.swagger());

  const webDist = options.webDist === undefined ? webDistDir : options.webDist;
  const hasWeb = webDist !== null && fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false, serve: true });
    // Files the build names by content hash can be cached for good; index.html never.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.url.startsWith('/assets/')) {
        void reply.header('cache-control', 'public, max-age=31536000, immutable');
      }
      done(null, payload);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !SERVER_PATHS.test(request.url);
    if (isPage && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (isPage) {
      return reply
        .code(404)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (or `npm start`, which builds it).');
    }
    return reply
      .code(404)
      .send(errorBody('not_found', `No route answers ${request.method} ${request.url.split('?')[0] ?? ''}.`));
  });

  return app;
}
