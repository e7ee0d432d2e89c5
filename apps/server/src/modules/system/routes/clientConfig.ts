import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientConfigSchema } from '@parley/shared';
import type { AppContext } from '../../../platform/context.js';
import { presentClientConfig } from '../clientConfigPresenter.js';

export const configRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/config',
    {
      schema: {
        tags: ['system'],
        summary: 'What the web app needs to know before it renders',
        response: { 200: clientConfigSchema },
      },
      config: { permission: 'public' },
    },
    () => presentClientConfig(ctx.config, ctx.database.kind, ctx.carriers.configured),
  );
  return Promise.resolve();
};
