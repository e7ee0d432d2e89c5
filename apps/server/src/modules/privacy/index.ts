export { gdprRoutes } from './routes/gdpr.js';
