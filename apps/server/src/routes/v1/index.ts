import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context.js';
import { configRoutes } from './config/config.js';

/** Every /v1 resource registers here. Each route declares config.permission (see http/permissions.ts). */
export const v1Routes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(configRoutes, { ctx });
};
