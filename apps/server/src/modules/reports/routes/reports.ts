import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  dailyCountsCsvColumns,
  dailyCountsQuerySchema,
  dailyCountsWindow,
  deliveryHealthResponseSchema,
  errorBodySchema,
  messagesCsvColumns,
  messagesReportAcceptedSchema,
  messagesReportQuerySchema,
  optOutCsvColumns,
  REPORT_LINK_EXPIRED_MESSAGE,
  REPORT_LINK_INVALID_MESSAGE,
  REPORT_LINK_TTL_DAYS,
  signedReportQuerySchema,
} from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { messagesReportJob } from '../messagesReportJob.js';
import { dailyCountsCsv } from '../dailyCounts.js';
import { deliveryHealth } from '../deliveryHealth.js';
import { openReportFile } from '../files.js';
import { optOutCsv } from '../optOuts.js';
import { requestMessagesReport } from '../requests.js';
import { createReportServices } from '../services.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found.
const fileParams = z.object({ id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['reports'];

const REPORT_NOT_FOUND = 'The report';

/** A CSV attachment; a stream is sent as it is, outside the JSON response schema. */
function sendCsv(reply: FastifyReply, fileName: string, body: Readable): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(body);
}

/**
 * The CSV as a stream, its first rows already read: a failure of the first query answers a proper error
 * instead of a cut-off file, and the rest follows page by page as the client reads.
 */
async function csvStream(chunks: AsyncGenerator<string>): Promise<Readable> {
  const first: string[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await chunks.next();
    if (next.done === true) return Readable.from(first);
    first.push(next.value);
  }
  async function* all(): AsyncGenerator<string> {
    yield* first;
    yield* chunks;
  }
  return Readable.from(all());
}

const csvAnswer = (columns: readonly string[]) => z.string().describe(`CSV: ${columns.join(',')}`);

/** Account reports (docs/reports.md): the summary and opted-out CSVs, the e-mailed detailed report and its link. */
export const reportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;
  const reports = createReportServices(ctx.config);
  const job = messagesReportJob({ config: ctx.config, database: ctx.database, mailer: ctx.mailer, reports });

  app.get(
    '/accounts/:acc/reports/deliveryhealth',
    {
      schema: {
        tags,
        summary: "Delivery health: the last 24 hours' outgoing texts by status, the error codes, opt-outs and a level",
        params: accountParams,
        response: { 200: deliveryHealthResponseSchema, ...errors },
      },
      config: { permission: 'reports.download' },
    },
    async (request) => ({ data: await deliveryHealth(db, membershipOf(request).accountId) }),
  );

  app.get(
    '/accounts/:acc/reports/dailycounts',
    {
      schema: {
        tags,
        summary: 'Summary: messages, segments, outcomes, opt-outs and spend per UTC day, as CSV',
        description:
          'One row per UTC day from `from` to `to` (inclusive, YYYY-MM-DD; the last 90 days by default, at most 366). ' +
          "Cells a spreadsheet would read as a formula are prefixed with '.",
        params: accountParams,
        querystring: dailyCountsQuerySchema,
        produces: ['text/csv'],
        response: { 200: csvAnswer(dailyCountsCsvColumns), ...errors },
      },
      config: { permission: 'reports.download' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const window = dailyCountsWindow(request.query, new Date());
      return sendCsv(reply, `summary-${window.from}-${window.to}.csv`, await csvStream(dailyCountsCsv(db, accountId, window)));
    },
  );

  app.get(
    '/accounts/:acc/reports/optout',
    {
      schema: {
        tags,
        summary: 'Opted Out: contacts opted out of the account, then list memberships opted out, as CSV',
        params: accountParams,
        produces: ['text/csv'],
        response: { 200: csvAnswer(optOutCsvColumns), ...errors },
      },
      config: { permission: 'reports.download' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      return sendCsv(reply, `opted-out-${new Date().toISOString().slice(0, 10)}.csv`, await csvStream(optOutCsv(db, accountId)));
    },
  );

  app.get(
    '/accounts/:acc/reports/messages',
    {
      schema: {
        tags,
        summary: 'Detailed: every message of the account as CSV, made in the background; a link to it is e-mailed',
        description:
          `Answers 202 at once. The e-mail holds a signed link that works for ${String(REPORT_LINK_TTL_DAYS)} days. ` +
          `Columns: ${messagesCsvColumns.join(', ')}.`,
        params: accountParams,
        querystring: messagesReportQuerySchema,
        response: { 202: messagesReportAcceptedSchema, ...errors },
      },
      config: { permission: 'reports.download' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const { email } = request.query;
      await requestMessagesReport(ctx.jobs, job, { accountId, email });
      return reply.code(202).send({ data: { email, linkValidDays: REPORT_LINK_TTL_DAYS } });
    },
  );

  app.get(
    '/reports/files/:id',
    {
      schema: {
        tags,
        summary: "A detailed report by its e-mailed link: signed and expiring, so it needs no token",
        params: fileParams,
        querystring: signedReportQuerySchema,
        produces: ['text/csv'],
        response: { 200: csvAnswer(messagesCsvColumns), ...errors },
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      const { id } = request.params;
      const check = (await reports.signer()).check(id, request.query.expires, request.query.sig, new Date());
      if (check === 'expired') throw new AppError(403, 'forbidden', REPORT_LINK_EXPIRED_MESSAGE);
      if (check === 'invalid') throw new AppError(403, 'forbidden', REPORT_LINK_INVALID_MESSAGE);
      const file = await openReportFile(reports.dir, id);
      if (file === null) throw notFound(REPORT_NOT_FOUND);
      return sendCsv(reply.header('content-length', String(file.size)), `messages-${id}.csv`, file.stream);
    },
  );
  return Promise.resolve();
};
