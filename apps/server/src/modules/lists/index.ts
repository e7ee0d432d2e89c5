export { addContactsToList, createList } from './listManager.js';
export { listRoutes } from './routes/lists.js';
