export { startWebPush, type WebPushDelivery } from './delivery.js';
export { webPushRoutes } from './routes/webPush.js';
