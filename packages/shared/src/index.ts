export * from './errors.js';
export * from './events.js';
export * from './status.js';
