export { createParleyClient, type ParleyClient, type ParleyClientOptions } from './client.js';
export { allPages, type Page, type PageRequest } from './pages.js';
export { clientCredentials, requestToken, TokenError, type Token, type TokenRequest } from './token.js';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';
export type { components, operations, paths } from './schema.js';
