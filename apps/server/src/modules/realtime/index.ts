export { RealtimeFanout } from './fanout.js';
export { closeRealtimeServer, createRealtimeServer, REALTIME_PATH, type RealtimeServer } from './realtimeServer.js';
