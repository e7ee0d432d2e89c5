export * from './events.js';
export * from './realtime.js';
