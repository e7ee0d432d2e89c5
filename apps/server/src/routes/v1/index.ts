import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../http/context.js';
import { accountRoutes } from './accounts/accounts.js';
import { configRoutes } from './config/config.js';
import { contactRoutes } from './contacts/contacts.js';
import { contactImportRoutes } from './contacts/imports.js';
import { tagAndAttributeRoutes } from './contacts/tagsAndAttributes.js';
import { credentialsRoutes } from './credentials/credentials.js';
import { gdprRoutes } from './gdpr/gdpr.js';
import { groupRoutes } from './groups/groups.js';
import { listRoutes } from './lists/lists.js';
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
  await app.register(listRoutes, { ctx });
  await app.register(groupRoutes, { ctx });
  await app.register(gdprRoutes, { ctx });
  await app.register(contactRoutes, { ctx });
  await app.register(contactImportRoutes, { ctx });
  await app.register(tagAndAttributeRoutes, { ctx });
};
