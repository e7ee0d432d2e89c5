import { describe, expect, it } from 'vitest';
import { nameSuggestions, numberLookupQuerySchema } from './tools.js';

describe('nameSuggestions', () => {
  it('reads LAST,FIRST as a registry writes it, capitals softened', () => {
    expect(nameSuggestions('SMITH,JOHN')).toEqual([{ firstName: 'John', lastName: 'Smith' }]);
    expect(nameSuggestions("O'NEIL, MARY-JANE")).toEqual([{ firstName: "Mary-Jane", lastName: "O'Neil" }]);
  });

  it('offers both orders of two words, and keeps mixed case as written', () => {
    expect(nameSuggestions('Ada Lovelace')).toEqual([
      { firstName: 'Ada', lastName: 'Lovelace' },
      { firstName: 'Lovelace', lastName: 'Ada' },
    ]);
    expect(nameSuggestions('JOHN PAUL JONES')).toEqual([
      { firstName: 'John Paul', lastName: 'Jones' },
      { firstName: 'Paul Jones', lastName: 'John' },
    ]);
  });

  it('has nothing to offer for no name or a blank one, and one name for one word', () => {
    expect(nameSuggestions(null)).toEqual([]);
    expect(nameSuggestions('   ')).toEqual([]);
    expect(nameSuggestions('ACME')).toEqual([{ firstName: 'Acme', lastName: '' }]);
  });
});

describe('numberLookupQuerySchema', () => {
  it('needs a number and takes a country code in any case', () => {
    expect(numberLookupQuerySchema.safeParse({ number: ' ' }).error?.issues[0]?.message).toBe('Number is required');
    expect(numberLookupQuerySchema.parse({ number: '415 555 0100', country: 'us' })).toEqual({ number: '415 555 0100', country: 'US' });
    expect(numberLookupQuerySchema.safeParse({ number: '1', country: 'USA' }).success).toBe(false);
  });
});
