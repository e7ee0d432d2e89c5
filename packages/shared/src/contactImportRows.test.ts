import { describe, expect, it } from 'vitest';
import { compileImportPlan, importRowIdentifiers, importRowMessages, prepareImportRow, splitTagCell, type PreparedRow } from './contactImportRows.js';

const columns = ['mobile', 'firstName', 'lastName', 'email', 'country', 'tags', 'listId', 'listOptIn', 'Shoe Size'];
const plan = compileImportPlan(
  columns,
  {
    mobile: 'mobile',
    firstName: 'firstName',
    lastName: 'lastName',
    email: 'email',
    country: 'country',
    tags: 'tags',
    listId: 'listId',
    listOptIn: 'listOptIn',
    'Shoe Size': 'shoeSize',
  },
  { country: 'GB' },
  'US',
);

const row = (cells: Partial<Record<string, string>>): PreparedRow => prepareImportRow(columns.map((c) => cells[c] ?? ''), plan);

describe('prepareImportRow', () => {
  it('normalises a full row', () => {
    expect(
      row({
        mobile: ' (415) 555-2671 ',
        firstName: ' Ann ',
        lastName: 'Lee',
        email: 'Ann@Example.COM',
        country: 'United States',
        tags: 'VIP; vip, Dentist ',
        listId: 'Newsletter',
        listOptIn: 'Yes',
        'Shoe Size': ' 38 ',
      }),
    ).toEqual({
      kind: 'contact',
      contact: {
        mobile: { valid: true, number: '+14155552671', country: 'US' },
        firstName: 'Ann',
        lastName: 'Lee',
        email: 'ann@example.com',
        tags: ['VIP', 'Dentist'],
        attributes: { shoeSize: '38' },
        list: 'Newsletter',
        listOptIn: true,
      },
    });
  });

  it('uses the country default, then the account default, for a national number', () => {
    expect(row({ mobile: '07400 123456' })).toMatchObject({ contact: { mobile: { valid: true, number: '+447400123456', country: 'GB' } } });
    const noDefault = compileImportPlan(['mobile'], { mobile: 'mobile' }, {}, 'AU');
    expect(prepareImportRow(['0412 345 678'], noDefault)).toMatchObject({ contact: { mobile: { number: '+61412345678' } } });
  });

  it('keeps a number that is not valid, with the reason', () => {
    expect(row({ mobile: '12345', country: 'US' })).toMatchObject({
      kind: 'contact',
      contact: { mobile: { valid: false, number: '12345', country: 'US', errorDescription: 'Country or Number is not valid' } },
    });
    expect(row({ mobile: '4155552671', country: 'Narnia' })).toMatchObject({
      contact: { mobile: { valid: false, errorDescription: 'Country is not valid' } },
    });
  });

  it('refuses a row holding the NUL character, which the database cannot keep', () => {
    const reason = importRowMessages.nulCharacter;
    expect(row({ mobile: '+14155552671', firstName: 'A\u0000nn' })).toEqual({ kind: 'error', reason });
    expect(row({ mobile: '+14155552671', 'Shoe Size': '\u0000' })).toEqual({ kind: 'error', reason });
    expect(prepareImportRow(['+14155552671', '', '', '', '', '', '', '', '', 'extra\u0000'], plan)).toEqual({ kind: 'error', reason });
  });

  it('tells a blank row from a row without a number', () => {
    expect(row({})).toEqual({ kind: 'blank' });
    expect(prepareImportRow(['  ', ''], plan)).toEqual({ kind: 'blank' });
    expect(row({ firstName: 'Ann' })).toEqual({ kind: 'missingMobile' });
    expect(row({ mobile: "'", firstName: 'Ann' })).toEqual({ kind: 'missingMobile' });
  });

  it('reads the cells spreadsheets and address books write', () => {
    expect(row({ mobile: "'+14155552671" })).toMatchObject({ contact: { mobile: { number: '+14155552671' } } });
    expect(row({ mobile: '+1 415-555-2671 ::: +1 650-555-0100', email: 'a@example.com ::: b@example.com' })).toMatchObject({
      contact: { mobile: { number: '+14155552671' }, email: 'a@example.com' },
    });
    expect(row({ mobile: '1.41556E+10' })).toEqual({ kind: 'error', reason: importRowMessages.spreadsheetNumber('1.41556E+10') });
  });

  it('refuses values the contact dialog refuses', () => {
    expect(row({ mobile: '+14155552671', email: 'not-an-address' })).toEqual({ kind: 'error', reason: 'Invalid email address' });
    expect(row({ mobile: '+14155552671', firstName: 'x'.repeat(101) })).toEqual({ kind: 'error', reason: 'firstName: At most 100 characters' });
    expect(row({ mobile: '+14155552671', tags: `ok, ${'t'.repeat(51)}` })).toEqual({
      kind: 'error',
      reason: importRowMessages.tagTooLong('t'.repeat(51)),
    });
    expect(row({ mobile: '+14155552671', 'Shoe Size': 'x'.repeat(1001) })).toEqual({ kind: 'error', reason: 'shoeSize: At most 1000 characters' });
    expect(row({ mobile: '+14155552671', listOptIn: 'maybe' })).toEqual({ kind: 'error', reason: 'listOptIn must be true or false, not "maybe"' });
    expect(prepareImportRow([...columns.map(() => ''), 'extra'].map((v, i) => (i === 0 ? '+14155552671' : v)), plan)).toEqual({
      kind: 'error',
      reason: 'The row has 10 values but the header names 9 columns',
    });
    // Trailing empty cells (a stray comma) are no extra values.
    expect(prepareImportRow(['+14155552671', ...columns.slice(1).map(() => ''), ''], plan)).toMatchObject({ kind: 'contact' });
  });

  it('applies defaults to empty cells only', () => {
    const withDefaults = compileImportPlan(
      ['mobile', 'source'],
      { mobile: 'mobile', source: 'source' },
      { tags: 'imported', source: 'fair', listOptIn: 'true' },
      'US',
    );
    expect(prepareImportRow(['+14155552671', ''], withDefaults)).toMatchObject({
      contact: { tags: ['imported'], attributes: { source: 'fair' }, listOptIn: true },
    });
    expect(prepareImportRow(['+14155552671', 'web'], withDefaults)).toMatchObject({ contact: { attributes: { source: 'web' } } });
  });
});

describe('a field fed by several columns', () => {
  const several = compileImportPlan(
    ['Phone : mobile', 'Phone : iPhone', 'Labels', 'Categories'],
    { 'Phone : mobile': 'mobile', 'Phone : iPhone': 'mobile', Labels: 'tags', Categories: 'tags' },
    {},
    'US',
  );
  it('takes the first cell that is not empty, and every tag column', () => {
    expect(prepareImportRow(['', '+1 415 555 2672', 'a ::: b', 'c;a'], several)).toMatchObject({
      contact: { mobile: { number: '+14155552672' }, tags: ['a', 'b', 'c'] },
    });
    expect(prepareImportRow(['+1 415 555 2671', '+1 415 555 2672', '', ''], several)).toMatchObject({
      contact: { mobile: { number: '+14155552671' }, tags: [] },
    });
  });

  it('tries the plainest column first, whatever the order of the file', () => {
    const hubspot = compileImportPlan(
      ['Phone Number', 'Mobile Phone Number'],
      { 'Phone Number': 'mobile', 'Mobile Phone Number': 'mobile' },
      {},
      'US',
    );
    expect(prepareImportRow(['+1 415 555 0100', '+1 415 555 2671'], hubspot)).toMatchObject({ contact: { mobile: { number: '+14155552671' } } });
    expect(prepareImportRow(['+1 415 555 0100', ''], hubspot)).toMatchObject({ contact: { mobile: { number: '+14155550100' } } });
  });
});

describe('importRowIdentifiers', () => {
  it('names a refused row as the file gives it, unchecked: the first value of each field', () => {
    const cells: Partial<Record<string, string>> = { mobile: ' 0412 ::: 0413 ', firstName: ' Ann ', email: 'not an address' };
    expect(row(cells)).toEqual({ kind: 'error', reason: importRowMessages.email });
    expect(importRowIdentifiers(columns.map((c) => cells[c] ?? ''), plan)).toEqual({
      firstName: 'Ann',
      lastName: '',
      mobile: '0412',
      email: 'not an address',
    });
  });
});

describe('splitTagCell', () => {
  it('splits the separators exports use', () => {
    expect(splitTagCell('* myContacts ::: Friends ::: * starred')).toEqual(['Friends', 'starred']);
    expect(splitTagCell('"Customers","VIP"')).toEqual(['Customers', 'VIP']);
    expect(splitTagCell('Friends;Family')).toEqual(['Friends', 'Family']);
    expect(splitTagCell('a | b ,, c')).toEqual(['a', 'b', 'c']);
  });
});
