import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  availableNumberListSchema,
  availableNumbersQuerySchema,
  buyPhoneNumberSchema,
  errorBodySchema,
  hostedPhoneNumberListSchema,
  hostedPhoneNumbersSchema,
  phoneNumberListQuerySchema,
  phoneNumberListSchema,
  phoneNumberRecordSchema,
  updatePhoneNumberSchema,
  verificationCallSchema,
  verifyPhoneNumberSchema,
} from '@parley/shared';
import { loadAccount } from '../../billing/index.js';
import { availableNumbers, buyPhoneNumber } from '../phoneNumberBuyer.js';
import { CarrierCallError } from '../phoneNumberCarrier.js';
import { addHostedNumbers } from '../phoneNumberHosting.js';
import { updatePhoneNumber } from '../phoneNumberSettings.js';
import { confirmVerificationCode, requestVerificationCall } from '../phoneNumberVerifier.js';
import { membershipOf, principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { findPhoneNumber, listPhoneNumbers } from '../queries.js';
import { presentPhoneNumber } from '../phoneNumberPresenter.js';

const accountParams = z.object({ acc: z.uuid() });
// Any string: a malformed id is simply not found, like another account's.
const numberParams = z.object({ acc: z.uuid(), id: z.string() });
const errors = {
  400: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
  502: errorBodySchema,
};

/** A carrier that failed is the carrier's problem, not ours: the answer says so and the log keeps why. */
async function loggingCarrierFailures<T>(log: FastifyBaseLogger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CarrierCallError) log.warn({ err: error.reason }, 'carrier call failed');
    throw error;
  }
}

export const phoneNumberRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  app.get(
    '/accounts/:acc/phonenumbers',
    {
      schema: {
        tags: ['phone numbers'],
        summary: "The account's phone numbers, oldest first (released numbers left out)",
        params: accountParams,
        querystring: phoneNumberListQuerySchema,
        response: { 200: phoneNumberListSchema, ...errors },
      },
      // Everyone reads numbers: sending picks a number, groups show theirs.
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listPhoneNumbers(db, accountId, { offset, limit });
      return { data: rows.map(presentPhoneNumber), pagination: { totalCount, offset, limit } };
    },
  );

  app.get(
    '/accounts/:acc/phonenumbers/available',
    {
      schema: {
        tags: ['phone numbers'],
        summary: "Numbers for sale in a country, from the deployment's default carrier",
        params: accountParams,
        querystring: availableNumbersQuerySchema,
        response: { 200: availableNumberListSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const found = await loadAccount(db, accountId);
      if (!found) throw notFound('The account');
      const country = request.query.country ?? found.account.defaultCountry;
      const data = await loggingCarrierFailures(request.log, () => availableNumbers(ctx.carriers, { country, limit: request.query.limit }));
      return { data };
    },
  );

  app.post(
    '/accounts/:acc/phonenumbers',
    {
      schema: {
        tags: ['phone numbers'],
        summary: 'Buy one of the available numbers: active at once (not on a trial plan)',
        params: accountParams,
        body: buyPhoneNumberSchema,
        response: { 201: phoneNumberRecordSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const row = await loggingCarrierFailures(request.log, () => buyPhoneNumber(db, ctx.carriers, accountId, request.body));
      return reply.code(201).send({ data: presentPhoneNumber(row) });
    },
  );

  app.post(
    '/accounts/:acc/phonenumbers/hosted',
    {
      schema: {
        tags: ['phone numbers'],
        summary: "Add the business's own numbers with a letter of authorisation: unverified until a call verifies each",
        params: accountParams,
        body: hostedPhoneNumbersSchema,
        response: { 201: hostedPhoneNumberListSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request, reply) => {
      const { accountId } = membershipOf(request);
      const principal = principalOf(request);
      const submittedBy = principal.clientId === undefined ? principal.userId : null;
      const rows = await addHostedNumbers(db, ctx.carriers, { accountId, submittedBy, form: request.body });
      return reply.code(201).send({ data: rows.map(presentPhoneNumber) });
    },
  );

  app.get(
    '/accounts/:acc/phonenumbers/:id',
    {
      schema: {
        tags: ['phone numbers'],
        summary: 'One phone number',
        params: numberParams,
        response: { 200: phoneNumberRecordSchema, ...errors },
      },
      config: { permission: 'account.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const row = await findPhoneNumber(db, accountId, request.params.id);
      if (!row) throw notFound('The phone number');
      return { data: presentPhoneNumber(row) };
    },
  );

  app.put(
    '/accounts/:acc/phonenumbers/:id',
    {
      schema: {
        tags: ['phone numbers'],
        summary: 'Configure a number: forwardTo (E.164, or null to stop), universalReply, name',
        params: numberParams,
        body: updatePhoneNumberSchema,
        response: { 200: phoneNumberRecordSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: presentPhoneNumber(await updatePhoneNumber(db, accountId, request.params.id, request.body)) };
    },
  );

  app.get(
    '/accounts/:acc/phonenumbers/:id/verify',
    {
      schema: {
        tags: ['phone numbers'],
        summary: 'Place a call to the number that reads out a 6-digit code (at most once a minute)',
        params: numberParams,
        response: { 200: verificationCallSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { row, expiresAt } = await loggingCarrierFailures(request.log, () =>
        requestVerificationCall(db, ctx.carriers, accountId, request.params.id),
      );
      return { data: { id: row.id, number: row.number, expiresAt: expiresAt.toISOString() } };
    },
  );

  app.post(
    '/accounts/:acc/phonenumbers/:id/verify',
    {
      schema: {
        tags: ['phone numbers'],
        summary: 'Verify the number with the code of the call (at most 5 wrong codes per call)',
        params: numberParams,
        body: verifyPhoneNumberSchema,
        response: { 200: phoneNumberRecordSchema, ...errors },
      },
      config: { permission: 'phoneNumbers.manage' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      return { data: presentPhoneNumber(await confirmVerificationCode(db, accountId, request.params.id, request.body.code)) };
    },
  );

  return Promise.resolve();
};
