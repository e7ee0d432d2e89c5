export { IntegrationActivitySubscriber } from './activitySubscriber.js';
export { integrationActivityJob } from './activityJob.js';
export { integrationSyncJob } from './syncJob.js';
export { integrationRoutes } from './routes/integrations.js';
export { emailRoutes } from './email/emailRoutes.js';
export { EmailReplySubscriber } from './email/replySubscriber.js';
export { emailReplyJob } from './email/replyJob.js';
export { startEmailListener } from './email/emailListener.js';
