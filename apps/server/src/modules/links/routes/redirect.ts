import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../platform/context.js';
import { closeLinksRuntime, linksRuntime, type LinksRuntime } from '../linksRuntime.js';
import { isPreviewFetcher } from '../previewBots.js';

const CODE = /^[0-9A-Za-z]{7,32}$/;
const ROOT_CODE_PATH = /^\/([0-9A-Za-z]{7,32})(?:\?.*)?$/;

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  '<title>Link not found</title></head><body style="font-family:system-ui,sans-serif;margin:3rem">' +
  '<h1>Link not found</h1><p>This short link does not exist or has been removed.</p></body></html>';

/**
 * One redirect: from the cache (a read on a miss, never a write), the click buffered. `host` is the custom
 * or shared short domain the request came to, or null on the main host's /r/ (docs/links.md, "Redirects").
 */
async function answer(runtime: LinksRuntime, request: FastifyRequest, reply: FastifyReply, code: string, host: string | null): Promise<FastifyReply> {
  const target = CODE.test(code) ? (runtime.cache.cached(code) ?? (await runtime.cache.lookup(code))) : null;
  const onItsHost = target !== null && (host === null || (runtime.hosts.isShared(host) ? target.domain === null : target.domain === host));
  if (target === null || !onItsHost) {
    return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
  }
  runtime.clicks.add(target.linkId, isPreviewFetcher(request.headers['user-agent']), target.recipientId);
  // 302, not 301: browsers keep a 301 for good and would stop counting clicks (docs/decisions.md).
  return reply.code(302).header('cache-control', 'private, no-store').header('location', target.destination).send();
}

/**
 * `GET /{code}` on a short host (the shared short domain or a verified custom domain), answered before
 * routing: on those hosts the path is a code, not a page of the web app.
 */
export function shortHostHook(ctx: AppContext): onRequestAsyncHookHandler {
  const runtime = linksRuntime(ctx.database, ctx.config, ctx.log);
  return async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const host = request.hostname.toLowerCase();
    if (!runtime.hosts.has(host)) return;
    const code = ROOT_CODE_PATH.exec(request.url)?.[1];
    if (code === undefined) return;
    await answer(runtime, request, reply, code, host);
    return reply;
  };
}

/** `GET /r/{code}` on the main host, for deployments without a short domain; the buffer's last write on close. */
export const redirectRoutes: FastifyPluginAsync<{ ctx: AppContext }> = (app, { ctx }) => {
  const runtime = linksRuntime(ctx.database, ctx.config, ctx.log);
  app.get(
    '/r/:code',
    { schema: { hide: true, params: z.object({ code: z.string() }) }, config: { permission: 'public' } },
    (request, reply) => answer(runtime, request, reply, (request.params as { code: string }).code, null),
  );
  app.addHook('onReady', async () => {
    await runtime.hosts.refresh();
    await runtime.cache.warm();
  });
  app.addHook('onClose', () => closeLinksRuntime(ctx.database));
  return Promise.resolve();
};
