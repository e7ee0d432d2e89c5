import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  blockContactSchema,
  contactCreatedSchema,
  contactListQuerySchema,
  contactListSchema,
  contactRecordSchema,
  createContactSchema,
  errorBodySchema,
  removeContactsResultSchema,
  removeContactsSchema,
  successResponseSchema,
  updateContactSchema,
  type ContactListQuery,
} from '@parley/shared';
import { contactsCsv } from '../csv.js';
import { findContact, listContacts } from '../queries.js';
import {
  blockContact,
  CONTACT_NOT_FOUND,
  createContact,
  removeContact,
  removeContacts,
  updateContact,
} from '../contactWriter.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { presentContact } from '../contactPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const contactParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/** `format=csv`, or no format and a client that asks for CSV first. */
function wantsCsv(request: FastifyRequest, query: ContactListQuery): boolean {
  if (query.format !== undefined) return query.format === 'csv';
  return (request.headers.accept ?? '').trim().toLowerCase().startsWith('text/csv');
}

/** A streamed CSV attachment: a stream is sent as it is, outside the JSON response schema. */
function sendCsv(reply: FastifyReply, fileName: string, body: Readable): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

const csvFileName = (now: Date): string => `contacts-${now.toISOString().slice(0, 10)}.csv`;

export const contactRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/contacts',
    {
      schema: {
        tags: ['contacts'],
        summary: 'The contacts table: filters, search, sort and paging; format=csv downloads every match as CSV',
        description:
          'With `format=csv` (or `Accept: text/csv`) the answer is a `text/csv` attachment with every contact of ' +
          'the same filters and order (no paging): the fixed columns, then one column per custom attribute. Cells ' +
          "a spreadsheet would read as a formula (starting with = + - @, tab or carriage return) are prefixed with '.",
        params: accountParams,
        querystring: contactListQuerySchema,
        response: { 200: contactListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const query = request.query;
      if (wantsCsv(request, query)) {
        return sendCsv(reply, csvFileName(new Date()), Readable.from(contactsCsv(ctx.database.db, accountId, query)));
      }
      const { records, totalCount, next } = await listContacts(ctx.database.db, accountId, query);
      const pagination = { totalCount, offset: query.offset, limit: query.limit, ...(next === undefined ? {} : { next }) };
      return { data: records.map(presentContact), pagination };
    },
  );

  app.post(
    '/accounts/:acc/contacts',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Add a contact (an invalid number is kept with valid false; a number the account has answers 409)',
        description:
          'Answers the contact in a list of one (`{ success, data: [contact] }`), as the hosted product does. ' +
          'With `Content-Type: text/csv` the body is instead a CSV file of up to 1,000 rows imported at once ' +
          '(`?mergeStrategy=append|core|remove`, default append; the rules of POST .../contacts/imports), answered ' +
          '201 `{ success, data: { importId, submitted, success, inserted, updated, missingMobile, duplicates, ' +
          'errors, contacts } }` (ContactUploadResponse); a file that cannot be read answers 400 and changes nothing.',
        params: accountParams,
        body: createContactSchema,
        response: { 201: contactCreatedSchema, ...errors },
      },
      config: { permission: 'contacts.write' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const record = await createContact(ctx.database.db, accountId, request.body);
      return reply.code(201).send({ success: true, data: [presentContact(record)] });
    },
  );

  app.post(
    '/accounts/:acc/contacts/remove',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Remove several contacts at once: all or none (an id the account does not have answers 404)',
        params: accountParams,
        body: removeContactsSchema,
        response: { 200: removeContactsResultSchema, ...errors },
      },
      config: { permission: 'contacts.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: await removeContacts(ctx.database.db, accountId, request.body.ids) };
    },
  );

  app.get(
    '/accounts/:acc/contacts/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'One contact',
        params: contactParams,
        response: { 200: contactRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const record = await findContact(ctx.database.db, accountId, request.params.id);
      if (!record) throw notFound(CONTACT_NOT_FOUND);
      return { data: presentContact(record) };
    },
  );

  app.put(
    '/accounts/:acc/contacts/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Change a contact: each field sent replaces the stored one (tags and attributes as a whole)',
        params: contactParams,
        body: updateContactSchema,
        response: { 200: contactRecordSchema, ...errors },
      },
      config: { permission: 'contacts.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const record = await updateContact(ctx.database.db, accountId, request.params.id, request.body);
      return { data: presentContact(record) };
    },
  );

  app.put(
    '/accounts/:acc/contacts/:id/block',
    {
      schema: {
        tags: ['contacts'],
        summary: "Block a contact (sets the blocked date; only the contact's own START lifts it)",
        params: contactParams,
        // The body is optional: a PUT without one blocks just the same.
        body: blockContactSchema.nullish(),
        response: { 200: contactRecordSchema, ...errors },
      },
      config: { permission: 'contacts.block' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const record = await blockContact(ctx.database.db, accountId, request.params.id, {
        messageId: request.body?.messageId,
      });
      return { data: presentContact(record) };
    },
  );

  app.delete(
    '/accounts/:acc/contacts/:id',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Remove a contact (and its list memberships); answers { success: true }',
        params: contactParams,
        response: { 200: successResponseSchema, ...errors },
      },
      config: { permission: 'contacts.write' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      await removeContact(ctx.database.db, accountId, request.params.id);
      return { success: true as const };
    },
  );
  return Promise.resolve();
};
