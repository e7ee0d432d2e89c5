import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import {
  SIMULATOR_CALL_STALE_MESSAGE,
  SIMULATOR_NUMBER_MESSAGE,
  SIMULATOR_OWN_NUMBER_MESSAGE,
  errorBodySchema,
  simulatorCallActionSchema,
  simulatorMessageRecordSchema,
  simulatorPhoneCallSchema,
} from '@parley/shared';
import { actOnSimulatorCall, activeSimulatorNumbers, DEPLOYMENT_SIMULATOR, findSimulatorCallRow, parsePhoneParam, ringForwardedCall } from '../../carriers/index.js';
import { answerIncomingCall, findOwnCall, progressCall } from '../../calls/index.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { phoneOf, requireSimulator } from './simulatorGuards.js';
import { presentSimulatorMessage } from '../simulatorPresenter.js';

const phoneParams = z.object({ acc: z.uuid(), phone: z.string() });
const callParams = z.object({ acc: z.uuid(), phone: z.string(), id: z.uuid() });
const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

/**
 * Voice on the simulated network (docs/calls.md, "On the simulator"): a virtual phone calls an account's
 * number (forwarded to its forwardTo, or missed), and the buttons of a call on a virtual phone.
 */
export const simulatorCallRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.post(
    '/accounts/:acc/simulator/phones/:phone/calls',
    {
      schema: {
        tags: ['simulator'],
        summary: "A virtual phone calls one of the account's simulator numbers: forwarded to its forwardTo, or missed",
        params: phoneParams,
        body: simulatorPhoneCallSchema,
        response: { 201: simulatorMessageRecordSchema, ...errors },
      },
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
      const callId = uuidv7();
      const answer = await answerIncomingCall(db, DEPLOYMENT_SIMULATOR, 'parley', { callId, from: phone, to });
      if (answer.kind === 'unknownNumber') throw notFound('The phone number');
      const row = await ringForwardedCall(db, { callId, caller: phone, business: to, forwardTo: answer.kind === 'forward' ? answer.forwardTo : null });
      return reply.code(201).send({ data: presentSimulatorMessage(row) });
    },
  );

  app.post(
    '/accounts/:acc/simulator/phones/:phone/calls/:id',
    {
      schema: {
        tags: ['simulator'],
        summary: 'Answer, decline or hang up a call on a virtual phone; the call in the conversation follows',
        params: callParams,
        body: simulatorCallActionSchema,
        response: { 200: simulatorMessageRecordSchema, ...errors },
      },
      config: { permission: 'messages.send' },
    },
    async (request) => {
      requireSimulator(ctx);
      const { accountId } = membershipOf(request);
      const phone = phoneOf(request.params.phone);
      const row = await findSimulatorCallRow(db, accountId, phone, request.params.id);
      if (row === null) throw notFound('The call');
      const done = await actOnSimulatorCall(db, row, request.body.action);
      if (done === null) throw new AppError(409, 'conflict', SIMULATOR_CALL_STALE_MESSAGE);
      const call = await findOwnCall(db, accountId, done.callId);
      if (call !== null && done.outcome !== null) await progressCall(db, call, done.outcome);
      const now = await findSimulatorCallRow(db, accountId, phone, row.id);
      if (now === null) throw notFound('The call');
      return { data: presentSimulatorMessage(now) };
    },
  );
  return Promise.resolve();
};
