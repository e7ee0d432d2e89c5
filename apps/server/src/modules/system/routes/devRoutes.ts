import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../../platform/context.js';
import { devMailboxRoutes } from './mailbox.js';

/** The development mailbox is served only in embedded mode (PGlite) when no SMTP server is configured. */
export function devMailboxEnabled(ctx: Pick<AppContext, 'config' | 'database'>): boolean {
  return ctx.database.kind === 'pglite' && ctx.config.mail.smtpUrl === null;
}

/** Development aids outside /v1; each decides for itself whether this deployment serves it. */
export const devRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  if (devMailboxEnabled(ctx)) await app.register(devMailboxRoutes, { ctx });
};
