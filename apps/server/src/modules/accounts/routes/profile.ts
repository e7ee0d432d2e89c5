import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema, profileInvitationsResponseSchema, profileResponseSchema, profileUpdateSchema } from '@parley/shared';
import { acceptTerms, updateProfile } from '../profileUpdater.js';
import { principalOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { notFound } from '../../../platform/errors.js';
import { groupsOfUser } from '../../groups/index.js';
import { openInvitationsFor } from '../../identity/index.js';
import { findUserById } from '../../identity/index.js';
import { API_CLIENTS_HAVE_NO_PROFILE, peopleOnly } from '../../identity/index.js';
import { presentProfile } from '../profilePresenter.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export const profileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  const db = ctx.database.db;

  const profileAnswer = async (userId: string) => {
    const user = await findUserById(db, userId);
    if (!user) throw notFound('The user');
    return { data: presentProfile(user, await groupsOfUser(db, user.id)) };
  };
  const onlyPeople = peopleOnly(API_CLIENTS_HAVE_NO_PROFILE);

  app.get(
    '/profile',
    {
      schema: { tags: ['profile'], summary: 'The signed-in user', response: { 200: profileResponseSchema, ...errors } },
      config: { permission: 'authenticated' },
      preValidation: onlyPeople,
    },
    (request) => profileAnswer(principalOf(request).userId),
  );

  app.put(
    '/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'Change the name and mobile number of the signed-in user',
        body: profileUpdateSchema,
        response: { 200: profileResponseSchema, ...errors },
      },
      config: { permission: 'authenticated' },
      preValidation: onlyPeople,
    },
    async (request) => {
      const { userId } = principalOf(request);
      await updateProfile(db, userId, request.body);
      return profileAnswer(userId);
    },
  );

  app.get(
    '/profile/invitations',
    {
      schema: {
        tags: ['profile'],
        summary: "Open invitations to the signed-in user's address (they become memberships once it is verified)",
        response: { 200: profileInvitationsResponseSchema, ...errors },
      },
      config: { permission: 'authenticated' },
      preValidation: onlyPeople,
    },
    async (request) => {
      const user = await findUserById(db, principalOf(request).userId);
      if (!user) throw notFound('The user');
      return { data: await openInvitationsFor(db, user.email) };
    },
  );

  app.put(
    '/profile/accepttac',
    {
      schema: { tags: ['profile'], summary: 'Accept the terms and conditions', response: { 204: z.null(), ...errors } },
      config: { permission: 'authenticated' },
      preValidation: onlyPeople,
    },
    async (request, reply) => {
      await acceptTerms(db, principalOf(request).userId);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};
