import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SIMULATOR_NUMBER_MESSAGE,
  SIMULATOR_OWN_NUMBER_MESSAGE,
  errorBodySchema,
  listQuerySchema,
  saveSimulatorSettingsSchema,
  simulatorMessageListSchema,
  simulatorMessageRecordSchema,
  simulatorNumberListSchema,
  simulatorPhoneListSchema,
  simulatorPhoneMessageSchema,
  simulatorSettingsRecordSchema,
  simulatorThreadQuerySchema,
} from '@parley/shared';
import { isSimulatorPicture, readSimulatorPicture } from '../../carriers/index.js';
import { activeSimulatorNumbers, listPhones, parsePhoneParam, phoneThread, sendFromPhone } from '../../carriers/index.js';
import { loadSimulatorSettings, saveSimulatorSettings } from '../../carriers/index.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { phoneOf, requireSimulator } from './simulatorGuards.js';
import { presentSimulatorMessage, presentSimulatorPhone, presentSimulatorSettings } from '../simulatorPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// A phone that is not a valid number is simply not found, not refused.
const phoneParams = z.object({ acc: z.uuid(), phone: z.string() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/**
 * The simulator's virtual phones and settings. They exist only where the deployment's carriers include the
 * simulator; elsewhere every route answers 404.
 */
export const simulatorRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/simulator/phones',
    {
      schema: {
        tags: ['simulator'],
        summary: "The virtual phones that exchanged messages or calls with the account's numbers, newest activity first",
        params: accountParams,
        querystring: listQuerySchema,
        response: { 200: simulatorPhoneListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      requireSimulator(ctx);
      const { accountId } = membershipOf(request);
      const { limit, offset } = request.query;
      const { rows, totalCount } = await listPhones(db, accountId, { limit, offset });
      return { data: rows.map(presentSimulatorPhone), pagination: { totalCount, offset, limit } };
    },
  );

  app.get(
    '/accounts/:acc/simulator/phones/:phone/messages',
    {
      schema: {
        tags: ['simulator'],
        summary: "A virtual phone's thread with the account's numbers: the latest messages and calls, oldest first",
        params: phoneParams,
        querystring: simulatorThreadQuerySchema,
        response: { 200: simulatorMessageListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      requireSimulator(ctx);
      const { accountId } = membershipOf(request);
      const phone = phoneOf(request.params.phone);
      const { limit } = request.query;
      const { rows, totalCount } = await phoneThread(db, accountId, phone, limit);
      // A phone that never talked with this account's numbers is not this account's to see.
      if (totalCount === 0) throw notFound('The phone');
      return { data: rows.map(presentSimulatorMessage), pagination: { totalCount, offset: 0, limit } };
    },
  );

  app.post(
    '/accounts/:acc/simulator/phones/:phone/messages',
    {
      schema: {
        tags: ['simulator'],
        summary: "A virtual phone texts one of the account's simulator numbers (a reply, STOP, a picture)",
        params: phoneParams,
        body: simulatorPhoneMessageSchema,
        response: { 201: simulatorMessageRecordSchema, ...errors },
      },
      // Speaking for a customer is a send-like act: the roles that may send messages.
      config: { permission: 'messages.send' },
    },
    async (request, reply) => {
      requireSimulator(ctx);
      const { accountId } = membershipOf(request);
      const phone = phoneOf(request.params.phone);
      const numbers = await activeSimulatorNumbers(db, accountId);
      const to = parsePhoneParam(request.body.to);
      if (to === null || !numbers.some((n) => n.number === to)) throw new AppError(400, 'validation_failed', `to: ${SIMULATOR_NUMBER_MESSAGE}`);
      if (numbers.some((n) => n.number === phone)) throw new AppError(400, 'validation_failed', SIMULATOR_OWN_NUMBER_MESSAGE);
      const row = await sendFromPhone(db, {
        phone,
        to,
        body: request.body.body,
        picture: request.body.picture,
        publicUrl: ctx.config.publicUrl,
      });
      return reply.code(201).send({ data: presentSimulatorMessage(row) });
    },
  );

  app.get(
    '/accounts/:acc/simulator/numbers',
    {
      schema: {
        tags: ['simulator'],
        summary: "The account's active simulator numbers, which a virtual phone may text",
        params: accountParams,
        response: { 200: simulatorNumberListSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      requireSimulator(ctx);
      const { accountId } = membershipOf(request);
      return { data: await activeSimulatorNumbers(db, accountId) };
    },
  );

  app.get(
    '/accounts/:acc/simulator/settings',
    {
      schema: {
        tags: ['simulator'],
        summary: "The simulated network's settings (for the whole deployment)",
        params: accountParams,
        response: { 200: simulatorSettingsRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async () => {
      requireSimulator(ctx);
      return { data: presentSimulatorSettings(await loadSimulatorSettings(db)) };
    },
  );

  app.put(
    '/accounts/:acc/simulator/settings',
    {
      schema: {
        tags: ['simulator'],
        summary: "Change the simulated network's latency, failure rate, error codes, rate and seed",
        params: accountParams,
        body: saveSimulatorSettingsSchema,
        response: { 200: simulatorSettingsRecordSchema, ...errors },
      },
      config: { permission: 'account.manage' },
    },
    async (request) => {
      requireSimulator(ctx);
      return { data: presentSimulatorSettings(await saveSimulatorSettings(db, request.body)) };
    },
  );

  app.get(
    '/simulator/media/:name',
    {
      schema: {
        tags: ['simulator'],
        summary: 'A sample picture a virtual phone sends (public, like a carrier media URL)',
        params: z.object({ name: z.string() }),
        // No response schema: the PNG's bytes go as they are; a 404 takes the usual error shape.
        produces: ['image/png'],
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      requireSimulator(ctx);
      const { name } = request.params;
      if (!isSimulatorPicture(name)) throw notFound('The picture');
      const bytes = await readSimulatorPicture(name);
      return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(bytes);
    },
  );
  return Promise.resolve();
};
