import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, privacyRemovalResultSchema, privacySearchQuerySchema, privacySearchResultSchema } from '@parley/shared';
import { downloadPersonalData, erasePersonalData, findContactByNumber } from '../personalDataEraser.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { presentContact } from '../../contacts/index.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const contactParams = z.object({ acc: z.uuid(), contactId: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export const gdprRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/gdpr/search',
    {
      schema: {
        tags: ['privacy'],
        summary: 'Find the contact holding a number (normalised as contacts are), with what a removal would take',
        params: accountParams,
        querystring: privacySearchQuerySchema,
        response: { 200: privacySearchResultSchema, ...errors },
      },
      config: { permission: 'gdpr.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const found = await findContactByNumber(db, accountId, request.query);
      return { data: found === null ? null : { contact: presentContact(found.record), holdings: found.holdings } };
    },
  );

  app.get(
    '/accounts/:acc/gdpr/download/:contactId',
    {
      schema: {
        tags: ['privacy'],
        summary: 'Everything held about a contact as a CSV file (record, recordId, field, value); written to the audit log',
        params: contactParams,
        produces: ['text/csv'],
        // A string with a text/csv content type is sent as it is, never serialised as JSON.
        response: { 200: z.string().describe('CSV: record,recordId,field,value'), ...errors },
      },
      config: { permission: 'gdpr.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const { contactId } = request.params;
      const csv = await downloadPersonalData(db, accountId, contactId, principalOf(request));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="contact-${contactId}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.delete(
    '/accounts/:acc/gdpr/remove/:contactId',
    {
      schema: {
        tags: ['privacy'],
        summary: 'Remove a contact for good with everything tied to it; written to the audit log',
        params: contactParams,
        response: { 200: privacyRemovalResultSchema, ...errors },
      },
      config: { permission: 'gdpr.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const removed = await erasePersonalData(db, accountId, request.params.contactId, principalOf(request));
      return { data: { removed } };
    },
  );
  return Promise.resolve();
};
