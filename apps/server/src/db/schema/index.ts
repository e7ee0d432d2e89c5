export * from './events.js';
export * from './realtime.js';
export * from './mail.js';
export * from './identity.js';
export * from './accounts.js';
export * from './contacts.js';
export * from './messaging.js';
export * from './inbox.js';
