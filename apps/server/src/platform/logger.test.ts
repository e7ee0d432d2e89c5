import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client.js';
import { openTestDatabase } from '../test/databases.js';
import { captureLogger } from '../test/logger.js';

describe('logged errors', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    await database.close();
  });

  it("name a failed statement's SQL but never its values", async () => {
    const { log, lines } = captureLogger();
    const personal = ['Ada Lovelace', '+1 415 555 2671'];
    const error: unknown = await database.db
      .execute(sql`select ${personal[0]}::int as name, ${personal[1]} as mobile`)
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    // The error itself still carries them, for the code that handles it.
    expect((error as Error).message).toContain(personal[0]);
    log.error({ err: error }, 'request failed');
    const line = JSON.stringify(lines);
    for (const value of personal) expect(line).not.toContain(value);
    expect(line).toContain('Failed query: select $1::int as name, $2 as mobile');
    expect(line).toContain('invalid input syntax for type integer');
    expect(lines[0]?.err).toMatchObject({ type: 'DrizzleQueryError', stack: expect.stringContaining('    at ') as unknown });
  });
});
