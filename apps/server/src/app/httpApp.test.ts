import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema } from '@parley/shared';
import { buildApp, routeTable, type App } from './httpApp.js';
import { silentLogger } from '../test/logger.js';
import { startTestServer, type TestServer } from '../test/server.js';
import { testDatabaseKinds } from '../test/databases.js';
import { AppError } from '../platform/errors.js';
import { createMessageHandlers } from '../modules/messaging/handlers.js';

describe.each(testDatabaseKinds)('HTTP skeleton on %s', (kind) => {
  let server: TestServer;
  let app: App;
  beforeAll(async () => {
    server = await startTestServer(kind, { SERVICES: 'web' });
    if (!server.app) throw new Error('the web role did not start');
    app = server.app;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers liveness and readiness', async () => {
    const live = await fetch(`${server.baseUrl}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', writes: 'ok', disk: 'ok', queue: 'ok' } });
  });

  it('answers unknown API paths with the one error shape and a 404', async () => {
    const res = await fetch(`${server.baseUrl}/v1/nothing-here?x=1`);
    expect(res.status).toBe(404);
    const body = errorBodySchema.parse(await res.json());
    expect(body.error).toEqual({ code: 'not_found', message: 'No route answers GET /v1/nothing-here.' });
  });

  it('gives every response a request id and keeps a sensible one it was given', async () => {
    const fresh = await fetch(`${server.baseUrl}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${server.baseUrl}/healthz`, { headers: { 'x-request-id': 'lb-1234' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234');
    const replaced = await fetch(`${server.baseUrl}/healthz`, { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id <script>');
  });

  it('serves the client config', async () => {
    const res = await fetch(`${server.baseUrl}/v1/config`);
    expect(await res.json()).toEqual({
      version: '0.0.0-test',
      embedded: kind === 'pglite',
      simulator: server.carriers.configured.includes('simulator'),
      pageViews: { sink: 'off', url: null },
      helpCenterUrl: null,
      payments: { provider: 'sandbox', stripePublishableKey: null },
      realtime: { path: '/socket.io', devAuth: false },
      publicUrl: server.config.publicUrl,
      auth: {
        issuer: server.config.identity.issuer,
        clientId: 'parley-web',
        scopes: 'openid profile email offline_access',
        socialProviders: [],
      },
    });
    expect(server.config.identity.issuer).toBe(`${server.config.publicUrl}/oidc`);
    expect(server.config.databaseUrl).toBeNull();
  });

  it('publishes an OpenAPI 3.1 document and a browsable reference', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/config', '/healthz', '/readyz']));
    const page = await fetch(`${server.baseUrl}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });

  it('declares a permission on every /v1 route', () => {
    const v1 = routeTable(app).filter((route) => route.url.startsWith('/v1'));
    expect(v1.map((r) => r.url)).toEqual(expect.arrayContaining(['/v1/config', '/v1/openapi.json']));
    const undeclared = v1.filter((route) => route.permission === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });
});

describe('error handling', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { SERVICES: 'web' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('maps validation, application, framework and unexpected errors to the error shape', async () => {
    // A throwaway instance of the same app with probe routes, so product routes stay as they are.
    const probe = await buildApp(
      {
        config: server.config,
        log: silentLogger(),
        database: server.database,
        jobs: server.jobs,
        mailer: server.mailer,
        carriers: server.carriers,
        carrierHandlers: createMessageHandlers({ database: server.database, log: silentLogger() }),
        authenticator: { authenticate: () => Promise.resolve(null) },
      },
      { webDist: null },
    );
    probe.post(
      '/v1/probe',
      { schema: { body: z.object({ name: z.string().min(1) }) }, config: { permission: 'public' } },
      () => ({ ok: true }),
    );
    probe.get('/v1/probe/app-error', { config: { permission: 'public' } }, () => {
      throw new AppError(409, 'conflict', 'That number is already taken.');
    });
    probe.get('/v1/probe/crash', { config: { permission: 'public' } }, () => {
      throw new Error('secret internals');
    });
    await probe.ready();
    try {
      const invalid = await probe.inject({ method: 'POST', url: '/v1/probe', payload: { name: '' } });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toEqual({ error: { code: 'validation_failed', message: expect.stringMatching(/^name: /) as string } });
      const badJson = await probe.inject({
        method: 'POST',
        url: '/v1/probe',
        headers: { 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(badJson.statusCode).toBe(400);
      expect(badJson.json<{ error: { code: string } }>().error.code).toBe('bad_request');
      const conflict = await probe.inject({ method: 'GET', url: '/v1/probe/app-error' });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toEqual({ error: { code: 'conflict', message: 'That number is already taken.' } });
      const crash = await probe.inject({ method: 'GET', url: '/v1/probe/crash' });
      expect(crash.statusCode).toBe(500);
      expect(crash.body).not.toContain('secret internals');
      expect(crash.json<{ error: { code: string } }>().error.code).toBe('internal_error');
      const tooBig = await probe.inject({
        method: 'POST',
        url: '/v1/probe',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json<{ error: { code: string } }>().error.code).toBe('payload_too_large');
    } finally {
      await probe.close();
    }
  });
});
