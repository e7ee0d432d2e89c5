import { app } from './app.js';

// Zapier's platform loads an ES module app from its default export.
export default app;
