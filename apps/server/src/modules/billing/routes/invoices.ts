import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, invoiceListQuerySchema, invoiceListSchema } from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { loadAccount } from '../accountPlan.js';
import { invoicePdf } from '../invoicePdf.js';
import { presentInvoice } from '../presenters.js';
import { findInvoice, listInvoices } from '../queries.js';

/** A PDF sent as it is, outside the JSON response schema. */
function sendPdf(reply: FastifyReply, fileName: string, body: Buffer): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'application/pdf')
    .header('content-disposition', `inline; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(body);
}

const pdfPath = (accountId: string, invoiceId: string): string => `/v1/accounts/${accountId}/invoices/${invoiceId}/pdf`;

/** GET /v1/accounts/{acc}/invoices (50 a page) and each invoice's PDF. */
export const invoiceRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/invoices',
    {
      schema: {
        tags: ['billing'],
        summary: "The account's invoices (plan charges and top-ups), newest first",
        params: z.object({ acc: z.uuid() }),
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listInvoices(ctx.database.db, accountId, { offset, limit });
      return { data: rows.map((row) => presentInvoice(row, pdfPath(accountId, row.id))), pagination: { totalCount, offset, limit } };
    },
  );
  app.get(
    '/accounts/:acc/invoices/:invoiceId/pdf',
    {
      schema: {
        tags: ['billing'],
        summary: "An invoice's PDF: written here for the sandbox, a redirect to Stripe's for Stripe",
        params: z.object({ acc: z.uuid(), invoiceId: z.uuid() }),
        produces: ['application/pdf'],
        response: { 200: z.string().describe('PDF'), 302: z.null().describe("Stripe's invoice PDF"), 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const row = await findInvoice(ctx.database.db, accountId, request.params.invoiceId);
      if (!row) throw notFound('The invoice');
      if (row.pdfUrl !== null) return reply.redirect(row.pdfUrl, 302);
      const loaded = await loadAccount(ctx.database.db, accountId);
      const pdf = invoicePdf(presentInvoice(row, pdfPath(accountId, row.id)), loaded?.account.name ?? '');
      return sendPdf(reply, `invoice-${row.issuedAt.toISOString().slice(0, 10)}.pdf`, pdf);
    },
  );
  return Promise.resolve();
};
