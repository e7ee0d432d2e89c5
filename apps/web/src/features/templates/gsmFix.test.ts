import { countSegments } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { describeReplacement, gsmFixFor } from './gsmFix';

const fixOf = (text: string) => gsmFixFor(text, countSegments(text).nonGsmCharacters);

describe('gsmFixFor', () => {
  it('offers the look-alikes of the characters that force UCS-2, and replaces smart punctuation along with them', () => {
    const fix = fixOf('Olá “José” – café…');
    expect(fix?.replacements).toEqual([{ character: 'á', replacement: 'a' }]);
    expect(fix?.text).toBe('Ola "José" - café...');
    expect(countSegments(fix?.text ?? '').encoding).toBe('GSM-7');
  });

  it('says what has no look-alike, and offers nothing when nothing would help', () => {
    expect(fixOf('Hi 😀 ça')).toEqual({ text: 'Hi 😀 ca', replacements: [{ character: 'ç', replacement: 'c' }], remaining: ['😀'] });
    expect(fixOf('Hi 😀')).toBeNull();
    expect(fixOf('“Quoted” — fine')).toBeNull();
    // A character that comes from a contact's value, not from the text, is not the template's to fix.
    expect(gsmFixFor('Hi {{{firstName}}}', ['ë'])).toBeNull();
  });

  it('drops a combining accent written apart from its letter', () => {
    const fix = fixOf('e\u0301te');
    expect(fix?.text).toBe('ete');
    expect(fix?.replacements.map(describeReplacement)).toEqual(['accent ◌\u0301 → (nothing)']);
  });

  it('describes replacements', () => {
    expect(describeReplacement({ character: 'ç', replacement: 'c' })).toBe('ç → c');
    expect(describeReplacement({ character: '\u00a0', replacement: ' ' })).toBe('non-breaking space → space');
  });
});
