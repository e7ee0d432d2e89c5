export { screenshotRoutes } from './routes/screenshots.js';
