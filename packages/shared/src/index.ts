export * from './errors.js';
export * from './events.js';
export * from './permissions.js';
export * from './status.js';
export * from './visibility.js';
