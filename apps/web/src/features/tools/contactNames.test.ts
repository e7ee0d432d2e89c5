import { describe, expect, it } from 'vitest';
import type { Contact } from '@parley/shared';
import { contactWithNumber, suggestionName, namesSavedText } from './contactNames';

const contact = (id: string, number: string): Contact => ({
  id,
  firstName: '',
  lastName: '',
  mobile: { number, country: 'US' },
  tags: [],
  attributes: {},
  valid: true,
  created: { at: '2026-12-01T00:00:00Z' },
  updated: { at: '2026-12-01T00:00:00Z' },
  lists: [],
});

describe('Use these names', () => {
  it('takes only the contact whose mobile is the number, not one that merely contains its digits', () => {
    const longer = contact('a', '+14155552671');
    const exact = contact('b', '+1415555267');
    expect(contactWithNumber([longer, exact], '+1415555267')).toBe(exact);
    expect(contactWithNumber([longer], '+1415555267')).toBeNull();
    expect(contactWithNumber([], '+14155552671')).toBeNull();
  });

  it('names the outcome with the names chosen, leaving out an empty one', () => {
    expect(suggestionName({ firstName: 'John', lastName: 'Smith' })).toBe('John Smith');
    expect(suggestionName({ firstName: 'Cher', lastName: '' })).toBe('Cher');
    expect(namesSavedText({ kind: 'renamed', name: 'John Smith' })).toBe('The contact with this number is now John Smith.');
    expect(namesSavedText({ kind: 'created', name: 'John Smith' })).toBe('Added John Smith to Contacts with this number.');
  });
});
