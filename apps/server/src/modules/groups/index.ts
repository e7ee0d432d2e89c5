export { createGroup } from './groupManager.js';
export { accountPhoneNumberIds, groupsOfUser } from './queries.js';
export { groupRoutes } from './routes/groups.js';
