export { assignConversationGroup, closeConversation, markConversationRead } from './routes/conversationCommands.js';
export { conversationRoutes } from './routes/conversations.js';
