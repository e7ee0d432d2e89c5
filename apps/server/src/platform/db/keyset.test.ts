import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts } from './schema/index.js';
import { CURSOR_INVALID_MESSAGE, decodeCursor, encodeCursor, KEY_TEXT, type KeysetOrder } from './keyset.js';

const byCreated: KeysetOrder = { key: sql`${contacts.createdAt}`, type: sql.raw('timestamptz'), keyText: KEY_TEXT.timestamptz, direction: 'desc', id: contacts.id };
const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

describe('keyset cursors', () => {
  it('carry a position back to the list and order that made them', () => {
    const cursor = encodeCursor('messages', { key: '2026-12-02 02:55:00.123456+00', id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('messages', byCreated, cursor)).toEqual({ key: '2026-12-02 02:55:00.123456+00', id });
  });

  it('refuse a cursor of another list or order, a malformed one, and a key that is not of the type', () => {
    const refused = (scope: string, cursor: string) => () => decodeCursor(scope, byCreated, cursor);
    const other = encodeCursor('contacts:lastName-asc', { key: '2026-12-02 02:55:00+00', id });
    expect(refused('messages', other)).toThrow(CURSOR_INVALID_MESSAGE);
    expect(refused('messages', 'not base64 at all!')).toThrow(CURSOR_INVALID_MESSAGE);
    expect(refused('messages', Buffer.from('{"a":1}').toString('base64url'))).toThrow(CURSOR_INVALID_MESSAGE);
    expect(refused('messages', encodeCursor('messages', { key: "x'; drop table contacts; --", id }))).toThrow(CURSOR_INVALID_MESSAGE);
    expect(refused('messages', encodeCursor('messages', { key: '2026-12-02 02:55:00+00', id: 'not-a-uuid' }))).toThrow(CURSOR_INVALID_MESSAGE);
    const text: KeysetOrder = { ...byCreated, type: sql.raw('text'), keyText: KEY_TEXT.text };
    expect(() => decodeCursor('names', text, encodeCursor('names', { key: 'a\u0000b', id }))).toThrow(CURSOR_INVALID_MESSAGE);
    expect(decodeCursor('names', text, encodeCursor('names', { key: "o'brien", id }))).toEqual({ key: "o'brien", id });
  });
});
