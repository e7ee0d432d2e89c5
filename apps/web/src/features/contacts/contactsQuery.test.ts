import { describe, expect, it } from 'vitest';
import { contactFilterQuery, contactPageQuery, filterParams, isFiltered, orderByOf, type ContactTableState } from './contactsQuery';

const base: ContactTableState = { page: 0, pageSize: 10, sort: null, filter: null, q: '', listId: '' };

describe('the contacts table query', () => {
  it('pages by offset and limit, newest first unless a column is sorted', () => {
    expect(contactPageQuery({ ...base, page: 2, pageSize: 25 })).toMatchObject({ offset: 50, limit: 25, orderBy: 'created-desc' });
    expect(orderByOf({ field: 'lastName', sort: 'asc' })).toBe('lastName-asc');
    expect(orderByOf({ field: 'mobile', sort: 'desc' })).toBe('mobile-desc');
    expect(orderByOf({ field: 'lastName', sort: null })).toBe('created-desc');
    expect(orderByOf({ field: 'tags', sort: 'asc' })).toBe('created-desc');
    expect(orderByOf({ field: 'attr.city', sort: 'asc' })).toBe('created-desc');
  });

  it('turns one column filter into its query parameter', () => {
    expect(filterParams({ field: 'firstName', operator: 'contains', value: ' Ada ' })).toEqual({ firstName: 'Ada' });
    expect(filterParams({ field: 'mobile', operator: 'contains', value: '555' })).toEqual({ mobile: '555' });
    expect(filterParams({ field: 'tags', operator: 'hasAll', value: 'vip, math' })).toEqual({ tags: 'vip, math' });
    expect(filterParams({ field: 'valid', operator: 'is', value: false })).toEqual({ valid: 'false' });
    expect(filterParams({ field: 'blocked', operator: 'is', value: 'true' })).toEqual({ blocked: 'true' });
    expect(filterParams({ field: 'blocked', operator: 'is', value: '' })).toEqual({});
    expect(filterParams({ field: 'attr.city', operator: 'notEquals', value: 'Paris' })).toEqual({ attribute: 'city|notEquals|Paris' });
    expect(filterParams({ field: 'attr.city', operator: 'startsWith', value: 'P' })).toEqual({});
    expect(filterParams({ field: 'firstName', operator: 'contains', value: undefined })).toEqual({});
    expect(filterParams({ field: 'created', operator: 'is', value: '2026-01-01' })).toEqual({});
  });

  it('gives the download the same filters and order, without paging', () => {
    const state: ContactTableState = {
      ...base,
      page: 3,
      sort: { field: 'email', sort: 'asc' },
      filter: { field: 'tags', operator: 'hasAll', value: 'vip' },
      q: ' smith ',
      listId: '0190c0de-0000-7000-8000-000000000000',
    };
    expect(contactFilterQuery(state)).toEqual({ orderBy: 'email-asc', q: 'smith', listId: state.listId, tags: 'vip' });
    expect(isFiltered(state)).toBe(true);
    expect(isFiltered(base)).toBe(false);
    expect(isFiltered({ ...base, filter: { field: 'email', operator: 'contains', value: '' } })).toBe(false);
  });
});
