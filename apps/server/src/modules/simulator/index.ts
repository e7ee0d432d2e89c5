export { simulatorRoutes } from './routes/simulator.js';
export { simulatorCallRoutes } from './routes/simulatorCalls.js';
