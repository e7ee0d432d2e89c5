import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, readinessSchema, type Readiness } from '@parley/shared';
import type { AppContext } from '../../http/context.js';

/** Liveness and readiness for load balancers and orchestrators; outside /v1 and without a token. */
export const systemRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/healthz',
    {
      schema: { tags: ['system'], summary: 'Liveness: the process answers', response: { 200: healthSchema } },
      config: { permission: 'public' },
      logLevel: 'warn',
    },
    () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database and the job queue answer',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
      config: { permission: 'public' },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const checks: Readiness['checks'] = { database: 'ok', queue: 'ok' };
      try {
        await ctx.database.ping();
      } catch (error) {
        ctx.log.warn({ err: error }, 'readiness: database check failed');
        checks.database = 'failing';
      }
      if (!ctx.jobs.isStarted) {
        checks.queue = 'not_started';
      } else {
        try {
          await ctx.jobs.check();
        } catch (error) {
          ctx.log.warn({ err: error }, 'readiness: queue check failed');
          checks.queue = 'failing';
        }
      }
      const ready = checks.database === 'ok' && checks.queue === 'ok';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  );
  return Promise.resolve();
};
