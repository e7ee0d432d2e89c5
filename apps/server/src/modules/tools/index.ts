export { lookupRoutes } from './routes/lookups.js';
export { lineTypeForContact, type NumberTypeAnswer } from './numberLookups.js';
