import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  markMessageReadSchema,
  messageListQuerySchema,
  messageListSchema,
  messageRecordSchema,
  sendMessageResultSchema,
  sendMessageSchema,
} from '@parley/shared';
import { sendMessages, type SendActor } from '../messageSender.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { conversationViewer } from '../conversationVisibility.js';
import { presentMessage } from '../messagePresenter.js';
import { presentSendResult } from '../sendPresenter.js';
import { MESSAGE_NOT_FOUND, markMessageRead } from '../markRead.js';
import { findMessage, listMessages } from '../messageQueries.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const messageParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = { 400: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const messageRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.post(
    '/accounts/:acc/messages',
    {
      schema: {
        tags: ['messages'],
        summary: 'Send a message to contacts, conversations and the contacts of filters (one each); charged at once, queued for the carrier',
        description:
          'Each contact and conversation gets one message, rendered with its tokens, priced by segments (or as ' +
          'one MMS with media) for its country, and queued: outside the account’s quiet hours in the recipient’s ' +
          'zone it waits (`sendAfter`), unless it answers a contact who wrote in the last 24 hours or it goes to one ' +
          'recipient with `sendNow`. The whole request is one debit: 402 `Insufficient Credit` queues nothing. ' +
          'With several recipients those who cannot be texted (blocked, opted out, invalid, a closed ' +
          'conversation ...) are left out and listed in `invalid`; when none can, or the only one cannot, the ' +
          'answer is an error with the reason. Media are URLs elsewhere or files of this account: another ' +
          'account’s media file (or an unknown one) answers 404 and sends nothing. `filters` adds the account’s ' +
          'contacts that carry every tag and meet every attribute comparison (`=`, `!=` or `contains`, ignoring case); ' +
          'at most 1000 recipients in all. `conversationStrategy` is refused (docs/api.md). The answer (200) is the ' +
          'hosted API’s: `{data: {messages, invalid, requested, valid, estimatedPrice}}`.',
        params: accountParams,
        body: sendMessageSchema,
        response: { 200: sendMessageResultSchema, ...errors },
      },
      config: { permission: 'messages.send' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const actor: SendActor =
        principal.clientId === undefined ? { kind: 'user', userId: principal.userId } : { kind: 'apiClient', clientId: principal.clientId };
      const body = request.body;
      const result = await sendMessages(db, {
        accountId,
        actor,
        contactIds: body.contacts.flatMap((c) => ('id' in c ? [c.id] : [])),
        contactsByMobile: body.contacts.flatMap((c) => ('id' in c ? [] : [c])),
        conversationIds: body.conversations,
        filters: body.filters ?? null,
        template: body.template,
        media: body.media,
        phoneNumberFilter: body.phoneNumberFilter ?? null,
        sendNow: body.sendNow,
        // A retry whose first request died after charging is refused by the ledger: never texted twice.
        ...(request.idempotency === null ? {} : { chargeIdempotencyKey: `request:${request.idempotency.callerId}:${request.idempotency.key}` }),
      });
      return reply.code(200).send(presentSendResult(result));
    },
  );

  app.get(
    '/accounts/:acc/messages',
    {
      schema: {
        tags: ['messages'],
        summary: "The account's messages, newest first: filters conversationId, contactId, jobId, incoming, outgoing, errors",
        description: 'Messages of conversations held by a group the user is not in are left out (Administrators and API clients see all).',
        params: accountParams,
        querystring: messageListQuerySchema,
        response: { 200: messageListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const membership = membershipOf(request);
      const query = request.query;
      const viewer = conversationViewer(principalOf(request), membership);
      const { rows, totalCount, next } = await listMessages(db, membership.accountId, viewer, query);
      const pagination = { totalCount, offset: query.offset, limit: query.limit, ...(next === undefined ? {} : { next }) };
      return { data: rows.map(presentMessage), pagination };
    },
  );

  app.get(
    '/accounts/:acc/messages/:id',
    {
      schema: { tags: ['messages'], summary: 'One message', params: messageParams, response: { 200: messageRecordSchema, ...errors } },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const membership = membershipOf(request);
      const row = await findMessage(db, membership.accountId, conversationViewer(principalOf(request), membership), request.params.id);
      if (!row) throw notFound(MESSAGE_NOT_FOUND);
      return { data: presentMessage(row) };
    },
  );

  app.put(
    '/accounts/:acc/messages/:id',
    {
      schema: {
        tags: ['messages'],
        summary: 'Mark an incoming message, or an outgoing one that failed, read or unread',
        params: messageParams,
        body: markMessageReadSchema,
        response: { 200: messageRecordSchema, ...errors },
      },
      config: { permission: 'messages.markRead' },
    },
    async (request) => {
      const membership = membershipOf(request);
      const viewer = conversationViewer(principalOf(request), membership);
      return { data: presentMessage(await markMessageRead(db, membership.accountId, viewer, request.params.id, request.body.read)) };
    },
  );
  return Promise.resolve();
};
