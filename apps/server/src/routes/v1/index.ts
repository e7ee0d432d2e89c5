import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context.js';
import { accountRoutes } from './accounts/accounts.js';
import { configRoutes } from './config/config.js';
import { credentialsRoutes } from './credentials/credentials.js';
import { profileRoutes } from './profile/profile.js';
import { signUpRoutes } from './signup/signup.js';
import { userRoutes } from './users/users.js';
import { verificationRoutes } from './verification/verification.js';

/** Every /v1 resource registers here. Each route declares config.permission (see http/permissions.ts). */
export const v1Routes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(configRoutes, { ctx });
  await app.register(accountRoutes, { ctx });
  await app.register(profileRoutes, { ctx });
  await app.register(signUpRoutes, { ctx });
  await app.register(verificationRoutes, { ctx });
  await app.register(userRoutes, { ctx });
  await app.register(credentialsRoutes, { ctx });
};
