import { describe, expect, it } from 'vitest';
import {
  contactListQuerySchema,
  createContactSchema,
  isValidAttributeName,
  parseAttributeFilter,
  uniqueTags,
  updateContactSchema,
} from './contacts.js';

describe('the contacts contract', () => {
  it('reads the table query: paging defaults, aliases, repeated and comma-separated values', () => {
    expect(contactListQuerySchema.parse({})).toEqual({ offset: 0, limit: 10, orderBy: 'created-desc' });
    expect(contactListQuerySchema.parse({ pageSize: '25' }).limit).toBe(25);
    expect(contactListQuerySchema.parse({ pageSize: '25', limit: '50' }).limit).toBe(50);
    expect(contactListQuerySchema.parse({ tags: ['vip,Math', 'vip', ' '] }).tags).toEqual(['vip', 'Math']);
    expect(contactListQuerySchema.parse({ attribute: 'city|contains|New|York' }).attribute).toEqual([
      { attribute: 'city', comparator: 'contains', value: 'New|York' },
    ]);
    expect(contactListQuerySchema.parse({ valid: 'false', blocked: 'true', q: ' ', listId: '' })).toMatchObject({ valid: false, blocked: true });
    expect(contactListQuerySchema.parse({ q: ' ' }).q).toBeUndefined();
    for (const bad of [{ limit: '501' }, { orderBy: 'id-asc' }, { valid: 'yes' }, { attribute: 'city|like|x' }, { listId: 'x' }]) {
      expect(contactListQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('parses attribute filters strictly', () => {
    expect(parseAttributeFilter('plan|equals|')).toEqual({ attribute: 'plan', comparator: 'equals', value: '' });
    expect(parseAttributeFilter('plan|equals')).toBeNull();
    expect(parseAttributeFilter('|equals|x')).toBeNull();
    expect(parseAttributeFilter('plan|EQUALS|x')).toBeNull();
  });

  it('keeps tags once ignoring case and attribute names as tokens', () => {
    expect(uniqueTags(['VIP', 'vip', 'b'])).toEqual(['VIP', 'b']);
    expect(isValidAttributeName('favourite_colour2')).toBe(true);
    for (const name of ['2fast', 'has space', 'email', 'FirstName', 'x'.repeat(65), '']) expect(isValidAttributeName(name), name).toBe(false);
  });

  it('reads a new contact: defaults, e-mail clearing, attribute values trimmed and empty ones dropped', () => {
    expect(createContactSchema.parse({ mobile: { number: ' 555 ', country: 'us' }, email: '', attributes: { a: ' 1 ', b: ' ' } })).toEqual({
      firstName: '',
      lastName: '',
      mobile: { number: '555', country: 'US' },
      email: null,
      tags: [],
      attributes: { a: '1' },
    });
    expect(updateContactSchema.parse({ email: null })).toEqual({ email: null });
    expect(updateContactSchema.parse({})).toEqual({});
  });
});
