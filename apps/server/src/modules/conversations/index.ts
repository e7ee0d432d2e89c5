export { assignConversationGroup, closeConversation, markConversationRead } from './conversationCommands.js';
export { conversationRoutes } from './routes/conversations.js';
export { loadConversation } from './conversationLoader.js';
