export { simulatorRoutes } from './routes/simulator.js';
