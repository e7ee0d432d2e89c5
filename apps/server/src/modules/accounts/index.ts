export { createAccountFor } from './accountCreator.js';
export { renewCredentials, requestCredentials } from './credentialsIssuer.js';
export { accountRoutes } from './routes/accounts.js';
export { credentialsRoutes } from './routes/credentials.js';
export { profileRoutes } from './routes/profile.js';
export { userRoutes } from './routes/users.js';
