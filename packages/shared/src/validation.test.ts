import { describe, expect, it } from 'vitest';
import { hasNulCharacter, nulCharacterPaths } from './validation.js';

describe('NUL characters', () => {
  it('are found in strings, nested values and keys, by path', () => {
    expect(hasNulCharacter('a\u0000b')).toBe(true);
    expect(hasNulCharacter('a\\u0000b')).toBe(false);
    expect(nulCharacterPaths({ firstName: 'Ada', lastName: 'L\u0000', mobile: { number: '\u0000' } })).toEqual([['lastName'], ['mobile', 'number']]);
    expect(nulCharacterPaths({ tags: ['ok', 'x\u0000'], attributes: { 'k\u0000': 'v' } })).toEqual([['tags', 1], ['attributes', 'k\\u0000']]);
    expect(nulCharacterPaths('\u0000')).toEqual([[]]);
    expect(nulCharacterPaths({ a: 1, b: null, c: true, d: 'fine' })).toEqual([]);
  });

  it('stop being counted after a few', () => {
    expect(nulCharacterPaths(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(5);
  });
});
