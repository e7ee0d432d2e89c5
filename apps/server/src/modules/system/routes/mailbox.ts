import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MailboxMessageRow } from '../../../platform/db/schema/index.js';
import { fromThisMachine } from '../../../platform/http/clientAddress.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { findMailboxMessage, listMailboxMessages } from '../../../platform/mail/localMailbox.js';
import { DEV_PAGE_CSP, escapeHtml, htmlPage, linkify, timeElement } from './devHtml.js';
import { isUuid } from '../../../platform/db/ids.js';

const PAGE_LIMIT = 200;

const mailboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
});

function presentMessage(row: MailboxMessageRow): z.infer<typeof mailboxMessageSchema> {
  return {
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    html: row.html,
    createdAt: row.createdAt.toISOString(),
  };
}

const subjectText = (subject: string): string => (subject.trim() === '' ? '(no subject)' : subject);

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', DEV_PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(html);
}

function listPage(rows: readonly MailboxMessageRow[]): string {
  const items = rows
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.recipient)}</td>` +
        `<td><a href="/dev/mailbox/${escapeHtml(row.id)}">${escapeHtml(subjectText(row.subject))}</a></td>` +
        `<td>${timeElement(row.createdAt)}</td></tr>`,
    )
    .join('');
  const table =
    rows.length === 0
      ? '<p>No messages yet.</p>'
      : `<table><thead><tr><th>To</th><th>Subject</th><th>Time</th></tr></thead><tbody>${items}</tbody></table>`;
  const more = rows.length === PAGE_LIMIT ? `<p class="note">Showing the newest ${PAGE_LIMIT} messages.</p>` : '';
  return htmlPage(
    'Mailbox - Parley',
    '<h1>Mailbox</h1>' +
      '<p class="note">E-mail this Parley has sent, kept here because no SMTP server is configured (SMTP_URL). ' +
      'Newest first.</p>' +
      table +
      more,
  );
}

function messagePage(row: MailboxMessageRow, from: string): string {
  const subject = subjectText(row.subject);
  const headers =
    `<dl><dt>From</dt><dd>${escapeHtml(from)}</dd>` +
    `<dt>To</dt><dd>${escapeHtml(row.recipient)}</dd>` +
    `<dt>Subject</dt><dd>${escapeHtml(subject)}</dd>` +
    `<dt>Date</dt><dd>${timeElement(row.createdAt)}</dd></dl>`;
  // The HTML body runs in a sandboxed frame without scripts; its links open in a new tab.
  const htmlBody =
    row.html === null
      ? ''
      : '<h2>HTML</h2><iframe title="HTML body" sandbox="allow-popups allow-popups-to-escape-sandbox" ' +
        `srcdoc="${escapeHtml(`<base target="_blank">${row.html}`)}"></iframe>`;
  return htmlPage(
    `${subject} - Mailbox - Parley`,
    '<p><a href="/dev/mailbox">&larr; Mailbox</a></p>' +
      `<h1>${escapeHtml(subject)}</h1>` +
      headers +
      `<h2>Text</h2><pre>${linkify(row.text)}</pre>` +
      htmlBody,
  );
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
    async (_request, reply) => sendPage(reply, listPage(await listMailboxMessages(db, { limit: PAGE_LIMIT }))),
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
      return reply.header('cache-control', 'no-store').send({ data: rows.map(presentMessage) });
    },
  );

  app.get(
    '/dev/mailbox/:id',
    { schema: { hide: true, params: z.object({ id: z.string() }) }, config: { permission: 'public' } },
    async (request, reply) => {
      const { id } = request.params;
      const row = isUuid(id) ? await findMailboxMessage(db, id) : null;
      if (row === null) throw notFound('The message');
      return sendPage(reply, messagePage(row, ctx.config.mail.from));
    },
  );

  return Promise.resolve();
};
