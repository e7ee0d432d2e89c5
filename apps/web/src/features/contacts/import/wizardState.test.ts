import { completeImportMapping } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { initialDefaults, mappingChanges, mappingProblem, sentDefaults } from './wizardState';

describe('the mapping the wizard sends', () => {
  const columns = ['Phone Number', 'Mobile Phone Number', 'First Name', 'Shoe Size'];

  it('sends only what differs from the automatic mapping, and the server rebuilds the same mapping', () => {
    const chosen = { 'Phone Number': 'mobile', 'Mobile Phone Number': 'mobile', 'First Name': null, 'Shoe Size': 'size' };
    const changes = mappingChanges(columns, chosen);
    expect(changes).toEqual({ 'Phone Number': 'mobile', 'First Name': null, 'Shoe Size': 'size' });
    expect(completeImportMapping(columns, changes)).toEqual(chosen);
    expect(mappingChanges(columns, completeImportMapping(columns, undefined))).toEqual({});
  });

  it("needs mobile, and country from a column or the default, in the words the wizard shows", () => {
    const mapping = completeImportMapping(columns, undefined);
    expect(mappingProblem(columns, mapping, initialDefaults('US'))).toBeNull();
    expect(mappingProblem(columns, mapping, { country: '' })).toBe('Missing Mandatory Field: You must specify a field mapping for country');
    expect(mappingProblem(columns, { ...mapping, 'Mobile Phone Number': null }, initialDefaults('US'))).toBe(
      'Missing Mandatory Field: You must specify a field mapping for mobile',
    );
    expect(sentDefaults({ country: 'GB', tags: ' ', listOptIn: '' })).toEqual({ country: 'GB' });
  });
});
