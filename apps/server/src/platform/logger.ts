import { pino, type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.js';

/** Fields of database errors that hold the values of a row or a statement: names, numbers, messages. */
const VALUE_FIELDS = ['params', 'parameters', 'detail'];

const isErrorLike = (value: unknown): value is Error & Record<string, unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';

/** The failed statements in an error and its causes: their `params: …` lines and the values themselves. */
function statementValues(error: unknown): { lines: string[]; values: string[] } {
  const lines: string[] = [];
  const values = new Set<string>();
  for (let e: unknown = error, depth = 0; isErrorLike(e) && depth < 10; e = e.cause, depth++) {
    if (!Array.isArray(e.params)) continue;
    lines.push(`\nparams: ${String(e.params)}`);
    // PostgreSQL repeats a value it could not read in its own message ("invalid input syntax …: \"…\"").
    for (const value of e.params) {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (text.length >= 3) values.add(text);
    }
  }
  return { lines, values: [...values].sort((a, b) => b.length - a.length) };
}

/**
 * pino's error serializer, without the values a failed statement carried: a query error names its SQL
 * (useful) and its parameters (people's names, numbers and messages, which logs must not keep).
 */
export function errorWithoutValues(error: unknown): unknown {
  const serialized: unknown = pino.stdSerializers.err(error as Error);
  if (!isErrorLike(error) || typeof serialized !== 'object' || serialized === null) return serialized;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(serialized as Record<string, unknown>).filter(([key]) => !VALUE_FIELDS.includes(key)),
  );
  const { lines, values } = statementValues(error);
  const scrub = (text: string): string => {
    let kept = text;
    for (const line of lines) kept = kept.replaceAll(line, '');
    // Stack frames are file paths and function names, never values: left as they are.
    return kept
      .split('\n')
      .map((row) => (row.startsWith('    at ') ? row : values.reduce((acc, value) => acc.replaceAll(value, '[value]'), row)))
      .join('\n');
  };
  for (const key of ['message', 'stack']) {
    const text = out[key];
    if (typeof text === 'string') out[key] = scrub(text);
  }
  return out;
}

/** The options of every logger of the product (and of tests that read its lines). */
export function loggerOptions(level: Config['logLevel'] | pino.LevelWithSilent, bindings: Record<string, unknown> = {}): LoggerOptions {
  return {
    level,
    base: { pid: process.pid, ...bindings },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    serializers: { err: errorWithoutValues, error: errorWithoutValues },
  };
}

export function createLogger(config: Pick<Config, 'logLevel'>, bindings: Record<string, unknown> = {}): Logger {
  return pino(loggerOptions(config.logLevel, bindings));
}
