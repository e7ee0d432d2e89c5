export { notificationRoutes } from './routes/notifications.js';
export { webhookSubscriptionRoutes } from './routes/webhooks.js';
