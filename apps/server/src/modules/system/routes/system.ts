import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, readinessSchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { checkReadiness } from '../readiness.js';

/** Liveness and readiness for load balancers and orchestrators; outside /v1 and without a token. */
export const systemRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const { storage } = ctx.config.media;
  const localDirs = [ctx.config.dataDir, ...(storage.kind === 'disk' ? [storage.dir] : [])];
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
        summary: 'Readiness: the database answers and takes writes, the disk has room, the job queue answers',
        response: { 200: readinessSchema, 503: readinessSchema },
      },
      config: { permission: 'public' },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const checks = await checkReadiness(ctx, localDirs);
      const ready = checks.database === 'ok' && checks.writes === 'ok' && checks.disk === 'ok' && checks.queue === 'ok';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  );
  return Promise.resolve();
};
