import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contactImportRecordSchema,
  contactImportRowsQuerySchema,
  contactImportRowsSchema,
  contactImportSchema,
  contactImportUploadQuerySchema,
  contactUploadResponseSchema,
  errorBodySchema,
  IMPORT_FILE_MAX_BYTES,
  importApiMessages,
  importFileMessages,
  listQuerySchema,
  listResponse,
} from '@parley/shared';
import { importContactRows, importContactsCsvAtOnce } from '../contactImportAtOnce.js';
import { startContactImport } from '../contactImporter.js';
import { presentContactImport } from '../import/presenter.js';
import { findContactImport, listContactImports } from '../queries.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const importParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Content types a browser or a script sends a CSV file as (Windows names .csv files after Excel). */
const fileContentTypes = ['text/csv', 'application/csv', 'text/plain', 'application/octet-stream', 'application/vnd.ms-excel'];

const tooLarge = (): AppError => new AppError(413, 'payload_too_large', importFileMessages.tooLarge);

/** Reads the raw body up to the limit; a larger one is refused as soon as that is known. */
function readFileBody(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > IMPORT_FILE_MAX_BYTES) return Promise.reject(tooLarge());
  return new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > IMPORT_FILE_MAX_BYTES) {
        payload.removeAllListeners('data');
        reject(tooLarge());
        return;
      }
      parts.push(chunk);
    });
    payload.on('end', () => {
      resolve(Buffer.concat(parts, size));
    });
    payload.on('error', reject);
  });
}

const userIdOf = (request: FastifyRequest): string | null => {
  const principal = principalOf(request);
  return principal.clientId === undefined ? principal.userId : null;
};

/** Contact imports: a CSV file in the background, or JSON rows or a small CSV file at once (docs/decisions.md). */
export const contactImportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // The raw-file parser belongs to the upload alone: every other route keeps JSON only.
  await app.register((upload: typeof app) => {
    upload.addContentTypeParser(fileContentTypes, (request, payload, done) => {
      readFileBody(request, payload).then(
        (body) => {
          done(null, body);
        },
        (error: unknown) => {
          done(error instanceof Error ? error : new Error(String(error)), undefined);
        },
      );
    });
    upload.post(
      '/accounts/:acc/contacts/imports',
      {
        schema: {
          tags: ['contacts'],
          summary: 'Upload a CSV file of contacts; it is imported in the background (202)',
          description:
            'The body is the file itself, sent as `text/csv` or `application/octet-stream` (at most 20 MB: larger ' +
            'answers 413). UTF-8 (with or without a byte-order mark) or UTF-16 with one; `,`, `;` or tab ' +
            'separated; the first row names the columns. `mapping` (JSON: column → field or attribute name, null ' +
            'to ignore) overrides the automatic mapping for the columns it names; `defaults` (JSON: field or ' +
            'attribute → value) fills empty cells; the country defaults to the account\'s. A file that cannot be ' +
            'read, has no rows, or leaves mobile or country without a source answers 400 and nothing is stored. ' +
            'Follow the import with GET .../contacts/imports/{id} or the websocket events contactImportProgress ' +
            'and contactsImported.',
          params: accountParams,
          querystring: contactImportUploadQuerySchema,
          response: { 202: contactImportRecordSchema, 413: errorBodySchema, 415: errorBodySchema, ...errors },
        },
        config: { permission: 'contacts.import' },
      },
      async (request, reply) => {
        const { accountId } = membershipOf(request);
        if (!Buffer.isBuffer(request.body)) throw new AppError(415, 'bad_request', importApiMessages.unsupportedType);
        const record = await startContactImport(ctx.database, ctx.jobs, {
          accountId,
          userId: userIdOf(request),
          file: request.body,
          query: request.query,
        });
        return reply.code(202).send({ data: record });
      },
    );
    upload.post(
      '/accounts/:acc/contacts',
      {
        // The JSON body of this method and path adds one contact (contacts.ts); a CSV file is imported here.
        constraints: { contentType: 'text/csv' },
        schema: {
          // One method and path is one operation in the API document: the JSON route's description tells of this one.
          hide: true,
          tags: ['contacts'],
          summary: 'Import a CSV file of up to 1,000 rows at once (the hosted product\'s upload in one call)',
          params: accountParams,
          querystring: contactImportRowsQuerySchema,
          response: { 201: contactUploadResponseSchema, 413: errorBodySchema, 415: errorBodySchema, ...errors },
        },
        config: { permission: 'contacts.import' },
      },
      async (request, reply) => {
        const { accountId } = membershipOf(request);
        if (!Buffer.isBuffer(request.body)) throw new AppError(415, 'bad_request', importApiMessages.unsupportedType);
        const result = await importContactsCsvAtOnce(ctx.database.db, {
          accountId,
          userId: userIdOf(request),
          strategy: request.query.mergeStrategy,
          file: request.body,
        });
        return reply.code(201).send({ success: true, data: result });
      },
    );
    return Promise.resolve();
  });

  app.get(
    '/accounts/:acc/contacts/imports',
    {
      schema: {
        tags: ['contacts'],
        summary: "The account's contact imports, newest first",
        params: accountParams,
        querystring: listQuerySchema,
        response: { 200: listResponse(contactImportSchema), ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listContactImports(ctx.database.db, accountId, { offset, limit });
      return { data: rows.map(presentContactImport), pagination: { totalCount, offset, limit } };
    },
  );

  app.get(
    '/accounts/:acc/contacts/imports/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'One contact import: status, progress and the result (so far, while it runs)',
        params: importParams,
        response: { 200: contactImportRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await findContactImport(ctx.database.db, accountId, request.params.id);
      if (!row) throw notFound('The import');
      return { data: presentContactImport(row) };
    },
  );

  app.post(
    '/accounts/:acc/contacts/import',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Import up to 1,000 rows sent as JSON, at once ("body data")',
        description:
          'Each item of `data` is a row keyed like CSV headers (`mobile`, `firstName`, `cell`, `Membership Level` ' +
          '...), mapped as a file would be. `mergeStrategy` append (default), core or remove. Answers the finished ' +
          'import with its result: submitted, success, missingMobile, duplicates and errors (row 1 is data[0]).',
        params: accountParams,
        querystring: contactImportRowsQuerySchema,
        body: contactImportRowsSchema,
        response: { 200: contactImportRecordSchema, ...errors },
      },
      config: { permission: 'contacts.import' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const record = await importContactRows(ctx.database.db, {
        accountId,
        userId: userIdOf(request),
        strategy: request.query.mergeStrategy,
        body: request.body,
      });
      return { data: record };
    },
  );
};
