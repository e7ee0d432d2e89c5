export { notificationRoutes } from './routes/notifications.js';
export { webhookSubscriptionRoutes } from './routes/webhooks.js';
export { startNotificationDelivery, type NotificationDelivery } from './notificationDelivery.js';
export { deliveryRoutes } from './routes/deliveries.js';
export { pruneDeliveriesJob } from './pruneDeliveriesJob.js';
export { pruneSlackReceiptsJob } from './channels/pruneSlackReceiptsJob.js';
export { notificationChannelRoutes } from './routes/channels.js';
export { slackRoutes } from './routes/slack.js';
export { countEnabledWebhooks } from './notificationQueries.js';
