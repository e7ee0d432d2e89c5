import { describe, expect, expectTypeOf, it } from 'vitest';
import { withoutNulls, type WithoutNulls } from './withoutNulls.js';

describe('withoutNulls', () => {
  it('leaves out null properties at every depth and keeps every other value, false, 0 and empty text too', () => {
    const record = {
      id: 'a',
      closed: false,
      count: 0,
      text: '',
      group: null,
      contact: { id: 'c', blocked: null, tags: [] as string[] },
      media: [{ url: 'u', note: null }],
      error: { code: null, description: 'failed' },
    };
    expect(withoutNulls(record)).toStrictEqual({
      id: 'a',
      closed: false,
      count: 0,
      text: '',
      contact: { id: 'c', tags: [] },
      media: [{ url: 'u' }],
      error: { description: 'failed' },
    });
  });

  it('keeps null items of arrays, dates and undefined as they are, and does not change its argument', () => {
    const at = new Date('2025-01-01T00:00:00Z');
    const record = { list: [null, 1], at, gone: undefined, nested: { empty: null } };
    const copy = structuredClone(record);
    expect(withoutNulls(record)).toStrictEqual({ list: [null, 1], at, gone: undefined, nested: {} });
    expect(record).toStrictEqual(copy);
    expect(withoutNulls(null)).toBeNull();
    expect(withoutNulls('text')).toBe('text');
  });

  it('types a property that may be null as optional and not null', () => {
    type Shape = WithoutNulls<{ id: string; group: { id: string; name: string | null } | null; list: { at: string | null }[] }>;
    expectTypeOf<Shape>().toEqualTypeOf<{ id: string; group?: { id: string; name?: string }; list: { at?: string }[] }>();
  });
});
