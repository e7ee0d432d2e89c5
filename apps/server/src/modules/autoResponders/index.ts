export { createAutoResponder } from './autoResponderManager.js';
export { autoResponderRoutes } from './routes/autoResponders.js';
