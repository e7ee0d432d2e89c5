export { lookupRoutes } from './routes/lookups.js';
