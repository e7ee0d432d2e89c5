import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, readinessSchema, type Readiness } from '@parley/shared';
import { diskHasRoom, MIN_FREE_DISK_BYTES, probeWrites } from '../../../platform/db/readiness.js';
import type { AppContext } from '../../../platform/context.js';

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
      const checks: Readiness['checks'] = { database: 'ok', writes: 'ok', disk: 'ok', queue: 'ok' };
      try {
        await ctx.database.ping();
      } catch (error) {
        ctx.log.warn({ err: error }, 'readiness: database check failed');
        checks.database = 'failing';
      }
      try {
        await probeWrites(ctx.database.db);
      } catch (error) {
        ctx.log.warn({ err: error }, 'readiness: the database takes no writes');
        checks.writes = 'failing';
      }
      try {
        if (!(await diskHasRoom(localDirs))) checks.disk = 'low';
      } catch (error) {
        ctx.log.warn({ err: error }, 'readiness: disk space unknown');
        checks.disk = 'low';
      }
      if (checks.disk === 'low') ctx.log.warn({ dirs: localDirs, minFreeBytes: MIN_FREE_DISK_BYTES }, 'readiness: too little free space where files are kept');
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
      const ready = checks.database === 'ok' && checks.writes === 'ok' && checks.disk === 'ok' && checks.queue === 'ok';
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
    },
  );
  return Promise.resolve();
};
