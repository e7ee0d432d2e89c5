import { describe, expect, expectTypeOf, it } from 'vitest';
import { omitAbsent } from './omitAbsent.js';

describe('omitAbsent', () => {
  it('leaves out null and undefined fields and keeps every other value, falsy ones included', () => {
    const record = { id: 'a', email: null, error: undefined, valid: false, count: 0, name: '', tags: [], nested: { at: null } };
    expect(omitAbsent(record)).toEqual({ id: 'a', valid: false, count: 0, name: '', tags: [], nested: { at: null } });
    expect(Object.keys(omitAbsent(record))).not.toContain('email');
    expect(Object.keys(omitAbsent(record))).not.toContain('error');
  });

  it('is shallow: a nested record keeps its nulls for its own presenter to trim', () => {
    expect(omitAbsent({ lists: [{ optIn: null }] })).toEqual({ lists: [{ optIn: null }] });
  });

  it('types a nullable field as optional and never null, and keeps the others required', () => {
    const trimmed = omitAbsent({ id: 'a', email: null as string | null, error: undefined as { description: string } | undefined });
    expectTypeOf(trimmed.id).toEqualTypeOf<string>();
    expectTypeOf(trimmed.email).toEqualTypeOf<string | undefined>();
    expectTypeOf(trimmed.error).toEqualTypeOf<{ description: string } | undefined>();
  });

  it('does not change the record it is given', () => {
    const record = { id: 'a', email: null };
    omitAbsent(record);
    expect(record).toEqual({ id: 'a', email: null });
  });
});
