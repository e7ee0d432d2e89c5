import {
  attributeComparators,
  contactSortColumns,
  DEFAULT_CONTACT_ORDER_BY,
  formatAttributeFilter,
  type AttributeComparator,
  type ContactOrderBy,
  type ContactSortColumn,
} from '@parley/shared';
import type { QueryValue } from '../../api/client';

/** Grid columns of custom attributes are named `attr.<name>`. */
export const attributeFieldPrefix = 'attr.';
export const attributeField = (name: string): string => `${attributeFieldPrefix}${name}`;
export const attributeOfField = (field: string): string | null =>
  field.startsWith(attributeFieldPrefix) ? field.slice(attributeFieldPrefix.length) : null;

/** The grid's state that shapes the request, in the grid's own terms. */
export interface ContactTableState {
  page: number;
  pageSize: number;
  sort: { field: string; sort: 'asc' | 'desc' | null | undefined } | null;
  /** The community grid filters by one column at a time. */
  filter: { field: string; operator: string; value: unknown } | null;
  /** The search box (already debounced). */
  q: string;
  listId: string;
}

const textColumns = ['firstName', 'lastName', 'mobile', 'email'] as const;
const booleanColumns = ['valid', 'blocked'] as const;

const isSortColumn = (field: string): field is ContactSortColumn => (contactSortColumns as readonly string[]).includes(field);

export function orderByOf(sort: ContactTableState['sort']): ContactOrderBy {
  if (sort === null || (sort.sort !== 'asc' && sort.sort !== 'desc') || !isSortColumn(sort.field)) return DEFAULT_CONTACT_ORDER_BY;
  return `${sort.field}-${sort.sort}`;
}

const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
};

/** The query parameters of one column filter; empty when the filter has no value yet. */
export function filterParams(filter: ContactTableState['filter']): Record<string, string> {
  if (filter === null) return {};
  const value = textOf(filter.value);
  if (value === '') return {};
  if ((textColumns as readonly string[]).includes(filter.field)) return { [filter.field]: value };
  if (filter.field === 'tags') return { tags: value };
  if ((booleanColumns as readonly string[]).includes(filter.field)) {
    return value === 'true' || value === 'false' ? { [filter.field]: value } : {};
  }
  const attribute = attributeOfField(filter.field);
  if (attribute !== null && (attributeComparators as readonly string[]).includes(filter.operator)) {
    return { attribute: formatAttributeFilter({ attribute, comparator: filter.operator as AttributeComparator, value }) };
  }
  return {};
}

/** The filters shared by the table and its CSV download. */
export function contactFilterQuery(state: Omit<ContactTableState, 'page' | 'pageSize'>): Record<string, QueryValue> {
  return {
    orderBy: orderByOf(state.sort),
    q: state.q.trim(),
    listId: state.listId,
    ...filterParams(state.filter),
  };
}

/** GET /contacts for one page of the table. */
export function contactPageQuery(state: ContactTableState): Record<string, QueryValue> {
  return { offset: state.page * state.pageSize, limit: state.pageSize, ...contactFilterQuery(state) };
}

/** Whether the table is narrowed at all (then an empty table means no match rather than no contacts). */
export const isFiltered = (state: ContactTableState): boolean =>
  state.q.trim() !== '' || state.listId !== '' || Object.keys(filterParams(state.filter)).length > 0;
