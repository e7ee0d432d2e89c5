import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptableHoursStatusRecordSchema,
  approvalResultSchema,
  approveHeldMessagesSchema,
  errorBodySchema,
  heldMessageListQuerySchema,
  heldMessageListSchema,
  isApprovalType,
  type ApprovalType,
} from '@parley/shared';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { acceptableHoursStatus } from '../acceptableHoursStatus.js';
import { approveHeldMessages, listHeldMessages } from '../heldMessages.js';

// Any string: an approval type the product does not know is simply not found.
const approvalParams = z.object({ acc: z.uuid(), approvalType: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

function knownType(value: string): ApprovalType {
  if (!isApprovalType(value)) throw notFound('The approval type');
  return value;
}

/**
 * Approvals (/approvals/{approvalType}). The one type is 'acceptablehours': messages held until
 * their recipient's acceptable hours (quiet hours), which an administrator may send at once.
 */
export const approvalRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/approvals/:approvalType',
    {
      schema: {
        tags: ['approvals'],
        summary: 'What waits for approval: the messages quiet hours hold, the soonest to go first',
        params: approvalParams,
        querystring: heldMessageListQuerySchema,
        response: { 200: heldMessageListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      knownType(request.params.approvalType);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listHeldMessages(db, accountId, { offset, limit });
      return { data: rows, pagination: { totalCount, offset, limit } };
    },
  );

  app.post(
    '/accounts/:acc/approvals/:approvalType',
    {
      schema: {
        tags: ['approvals'],
        summary: 'Send held messages now, outside acceptable hours: those named, or all of them',
        params: approvalParams,
        // The body is optional: without one (or without messageIds) every held message is approved.
        body: approveHeldMessagesSchema.nullish(),
        response: { 200: approvalResultSchema, ...errors },
      },
      // Texting people outside the hours the account chose is the administrator's call.
      config: { permission: 'account.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      knownType(request.params.approvalType);
      const approved = await approveHeldMessages(db, accountId, request.body?.messageIds);
      request.log.info({ accountId, approved }, 'held messages approved for sending outside acceptable hours');
      return { data: { approved } };
    },
  );
  app.get(
    '/accounts/:acc/contacts/:id/acceptablehours',
    {
      schema: {
        tags: ['approvals'],
        summary: "Whether a one-to-one message to the contact would go now, or wait for the contact's acceptable hours",
        description:
          'The contact’s time zone and local time, whether the account’s acceptable hours are open there, and whether the ' +
          'contact wrote in the last 24 hours (an answer then goes at once). While closed, when they open. A message ' +
          'sent with `sendNow` goes at once anyway.',
        params: z.object({ acc: z.uuid(), id: z.string() }),
        response: { 200: acceptableHoursStatusRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      if (!z.uuid().safeParse(request.params.id).success) throw notFound('The contact');
      return { data: await acceptableHoursStatus(db, accountId, request.params.id) };
    },
  );
  return Promise.resolve();
};
