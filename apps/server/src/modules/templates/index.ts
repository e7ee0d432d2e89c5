export { clientRoutes } from './routes/optIn.js';
export { templateWebhookRoutes } from './routes/templateWebhooks.js';
export { templateRoutes } from './routes/templates.js';
export { createTemplate, findTemplate } from './templateManager.js';
export { templateViewer, visibleTemplateCondition, type TemplateViewer } from './visibility.js';
