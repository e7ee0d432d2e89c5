import { pino, type Logger } from 'pino';

export interface CapturedLogger {
  log: Logger;
  lines: Record<string, unknown>[];
}

/** A real pino logger whose lines a test can read. */
export function captureLogger(level: pino.LevelWithSilent = 'info'): CapturedLogger {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level },
    {
      write(chunk: string) {
        lines.push(JSON.parse(chunk) as Record<string, unknown>);
      },
    },
  );
  return { log, lines };
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
