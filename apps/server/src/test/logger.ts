import { pino, type Logger } from 'pino';
import { loggerOptions } from '../platform/logger.js';

export interface CapturedLogger {
  log: Logger;
  lines: Record<string, unknown>[];
}

/** A real pino logger whose lines a test can read, with the product's serializers and redactions. */
export function captureLogger(level: pino.LevelWithSilent = 'info'): CapturedLogger {
  const lines: Record<string, unknown>[] = [];
  const { serializers, redact } = loggerOptions(level);
  const log = pino(
    { level, ...(serializers === undefined ? {} : { serializers }), ...(redact === undefined ? {} : { redact }) },
    {
      write(chunk: string) {
        lines.push(JSON.parse(chunk) as Record<string, unknown>);
      },
    },
  );
  return { log, lines };
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
