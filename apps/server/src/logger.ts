import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export function createLogger(config: Pick<Config, 'logLevel'>, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level: config.logLevel,
    base: { pid: process.pid, ...bindings },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}
