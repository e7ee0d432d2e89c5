import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromThisMachine } from '../../../platform/http/clientAddress.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { findMailboxMessage, listMailboxMessages } from '../../../platform/mail/localMailbox.js';
import { DEV_PAGE_CSP } from '../devHtml.js';
import { mailboxListPage, mailboxMessagePage, mailboxMessageSchema, presentMailboxMessage } from '../mailboxPages.js';

const PAGE_LIMIT = 200;

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', DEV_PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(html);
}

/**
 * The embedded development mailbox: outgoing e-mail kept in the database when no SMTP server is
 * configured, so a newcomer can open a verification link. Registered only in embedded mode, and readable
 * only from the machine Parley runs on: it holds every reset and invitation link (docs/security.md).
 */
export const devMailboxRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  // Anyone else is told there is nothing here, exactly as for a path no route answers.
  app.addHook('onRequest', (request, reply, done) => {
    if (fromThisMachine(request)) {
      done();
      return;
    }
    reply.callNotFound();
  });

  app.get(
    '/dev/mailbox',
    { schema: { hide: true }, config: { permission: 'public' } },
    async (_request, reply) => sendPage(reply, mailboxListPage(await listMailboxMessages(db, { limit: PAGE_LIMIT }), PAGE_LIMIT)),
  );

  app.get(
    '/dev/mailbox.json',
    {
      schema: {
        hide: true,
        querystring: z.object({
          to: z.string().min(1).optional(),
          limit: z.coerce.number().int().min(1).max(1000).default(100),
        }),
        response: { 200: z.object({ data: z.array(mailboxMessageSchema) }) },
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const { to, limit } = request.query;
      const rows = await listMailboxMessages(db, { limit, ...(to === undefined ? {} : { to }) });
      return reply.header('cache-control', 'no-store').send({ data: rows.map(presentMailboxMessage) });
    },
  );

  app.get(
    '/dev/mailbox/:id',
    { schema: { hide: true, params: z.object({ id: z.string() }) }, config: { permission: 'public' } },
    async (request, reply) => {
      const { id } = request.params;
      const row = await findMailboxMessage(db, id);
      if (row === null) throw notFound('The message');
      return sendPage(reply, mailboxMessagePage(row, ctx.config.mail.from));
    },
  );

  return Promise.resolve();
};
