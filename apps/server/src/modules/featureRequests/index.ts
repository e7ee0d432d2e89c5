export { issueBoardToken } from './boardToken.js';
export { boardTokenRoutes } from './routes/boardToken.js';
export { featureCommentRoutes } from './routes/featureComments.js';
export { featureRequestRoutes } from './routes/featureRequests.js';
