export { IntegrationActivitySubscriber } from './activitySubscriber.js';
export { integrationActivityJob } from './activityJob.js';
export { integrationSyncJob } from './syncJob.js';
export { integrationRoutes } from './routes/integrations.js';
