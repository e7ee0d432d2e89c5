import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from './client.js';
import { jsonRecords } from './jsonRecords.js';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.js';

describe.each(testDatabaseKinds)('rows bound as json on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  type Row = {
    n: number;
    id: string | null;
    at: Date | null;
    text: string | null;
    data: unknown;
    kind: string | null;
  };
  const unpacked = (rows: readonly object[]): Promise<Row[]> =>
    queryRows<Row>(
      database.db,
      sql`select v.n, v.id, v.at, v.text, v.data, jsonb_typeof(v.data) as kind
            from json_to_recordset(${jsonRecords(rows)}) as v(n int, id uuid, at timestamptz, text text, data jsonb)
           order by v.n`,
    );

  it('reads each row as typed columns, a nested value as jsonb, a null or missing key as SQL null', async () => {
    const rows = await unpacked([
      { n: 1, id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', at: new Date('2026-12-04T10:00:00.123Z'), text: "o'brien \u00e9 \ud83d\ude00 \"quoted\"", data: { b: 1, a: [true, null] } },
      { n: 2, id: null, at: null, text: null, data: null },
      { n: 3 },
    ]);
    expect(rows).toHaveLength(3);
    const [first, second, third] = rows;
    expect(first?.id).toBe('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
    expect(new Date(first?.at ?? 0).toISOString()).toBe('2026-12-04T10:00:00.123Z');
    expect(first?.text).toBe("o'brien \u00e9 \ud83d\ude00 \"quoted\"");
    expect(first?.data).toEqual({ a: [true, null], b: 1 });
    expect(first?.kind).toBe('object');
    for (const empty of [second, third]) expect(empty).toEqual({ n: empty?.n, id: null, at: null, text: null, data: null, kind: null });
  });

  it('refuses a value that is not of its column type, and unpacks an empty batch to no rows', async () => {
    await expect(unpacked([{ n: 1, id: 'not-a-uuid' }])).rejects.toThrow();
    await expect(unpacked([])).resolves.toEqual([]);
  });
});
