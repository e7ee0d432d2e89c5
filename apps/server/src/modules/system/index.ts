export { configRoutes } from './routes/clientConfig.js';
export { devRoutes } from './routes/devRoutes.js';
export { systemRoutes } from './routes/system.js';
