import { describe, expect, it } from 'vitest';
import { INVALID_PATTERN_PREFIX } from '@parley/shared';
import { firstMatching, matcherFor, patternProblem, simplePattern } from './autoResponderMatch.js';

const simple = (match: string) => matcherFor({ match, advanced: false });
const advanced = (match: string) => matcherFor({ match, advanced: true });

describe('Simple matches', () => {
  it('find the word whole, ignoring case, with punctuation around it', () => {
    const price = simple('price');
    for (const text of ['price', 'PRICE', "What's the price?", 'Price: how much', '(price)', 'price.', 'the "price" please']) {
      expect(price(text), text).toBe(true);
    }
    for (const text of ['priceless', 'prices', 'overprice', 'pric e', 'p-r-i-c-e', 'price_list', 'price2']) {
      expect(price(text), text).toBe(false);
    }
  });

  it('know words of any script, so a letter with an accent is no boundary', () => {
    expect(simple('café')('Is the café open?')).toBe(true);
    expect(simple('caf')('Is the café open?')).toBe(false);
    expect(simple('ПРИВЕТ')('привет всем')).toBe(true);
    expect(simple('привет')('приветствую')).toBe(false);
    expect(simple('straße')('STRASSE')).toBe(false);
    expect(simple('Ärger')('kein ärger bitte')).toBe(true);
    // One normal form: é composed or as e and a combining accent.
    expect(firstMatching([{ match: 'caf\u00e9', advanced: false }], 'cafe\u0301?')).not.toBeNull();
    expect(firstMatching([{ match: 'cafe\u0301', advanced: false }], 'caf\u00e9!')).not.toBeNull();
  });

  it('match a phrase with any blanks between its words', () => {
    const hours = simple('  opening hours ');
    expect(hours('What are your opening hours?')).toBe(true);
    expect(hours('OPENING\n  HOURS')).toBe(true);
    expect(hours('opening-hours')).toBe(false);
    expect(hours('reopening hours')).toBe(false);
    expect(hours('opening hourss')).toBe(false);
  });

  it('take regular expression characters literally, and need no boundary beside punctuation', () => {
    expect(simple('c++')('I code c++ daily')).toBe(true);
    expect(simple('c++')('c++11')).toBe(true);
    expect(simple('c++')('abc++')).toBe(false);
    expect(simple('$5 off')('Is the $5 off deal on?')).toBe(true);
    expect(simple('a.b')('axb')).toBe(false);
    expect(simple('(yes)')('I say (yes)')).toBe(true);
    expect(simple('why?')('why not')).toBe(false);
    expect(simple('x-ray')('An x-ray today?')).toBe(true);
    expect(simple('a/b')('a/b test')).toBe(true);
    expect(simplePattern('stop').flags).toContain('i');
  });
});

describe('Advanced matches', () => {
  it('are RE2 expressions found anywhere, ignoring case unless (?-i) says otherwise', () => {
    expect(advanced(String.raw`order\s*#?\d{4,}`)('Where is ORDER #12345?')).toBe(true);
    expect(advanced(String.raw`order\s*#?\d{4,}`)('order 12')).toBe(false);
    expect(advanced('^hi$')('HI')).toBe(true);
    expect(advanced('^hi$')('hi there')).toBe(false);
    expect(advanced('(?-i)^Hi$')('HI')).toBe(false);
    expect(advanced('(?-i)^Hi$')('Hi')).toBe(true);
    expect(advanced(String.raw`\p{Greek}+`)('καλημέρα')).toBe(true);
  });

  it('run a classic catastrophic pattern on a long text in linear time, with the right answer', () => {
    const catastrophic = advanced('(a+)+$');
    // A backtracking engine takes exponential time on the first: RE2 answers at once either way.
    expect(catastrophic(`${'a'.repeat(50_000)}!`)).toBe(false);
    expect(catastrophic('a'.repeat(50_000))).toBe(true);
    expect(advanced('^(a|aa)+$')(`${'a'.repeat(40_000)}b`)).toBe(false);
    expect(advanced(String.raw`^(\w+\s?)*$`)(`${'word '.repeat(5_000)}!`)).toBe(false);
  });

  it('are checked when saved: syntax errors and unsupported constructs are named', () => {
    expect(patternProblem(String.raw`order\s*\d+`)).toBeNull();
    expect(patternProblem('(?-i)Stop|(?i:go)')).toBeNull();
    expect(patternProblem('(?P<name>a)')).toBeNull();
    const cases: [string, string][] = [
      [String.raw`(\w)\1`, 'backreferences such as \\1 are not supported'],
      ['foo(?=bar)', 'lookahead and lookbehind'],
      ['foo(?!bar)', 'lookahead and lookbehind'],
      ['(?<=a)b', 'lookahead and lookbehind'],
      ['(?<!a)b', 'lookahead and lookbehind'],
      ['[a-', 'missing closing ]: `[a-`'],
      ['(abc', 'missing closing ): `(abc`'],
      ['a**', 'invalid nested repetition operator: `**`'],
      ['a{1001}', 'invalid repeat count: `{1001}`'],
      ['((a{100}){100}){100}', 'invalid repeat count'],
      [String.raw`\Z`, 'invalid escape sequence: `\\Z`'],
    ];
    for (const [pattern, problem] of cases) {
      const message = patternProblem(pattern);
      expect(message, pattern).toContain(problem);
      expect(message?.startsWith(INVALID_PATTERN_PREFIX), pattern).toBe(true);
      // The message quotes the pattern as written, never with flags the server adds.
      expect(message, pattern).not.toContain('(?i)');
    }
  });

  it('that no longer compile match nothing instead of failing', () => {
    expect(advanced('(abc')('abc')).toBe(false);
  });
});

describe('the responder that answers', () => {
  it('is the first in the order given that matches, or none', () => {
    const responders = [
      { id: 'hours', match: 'hours', advanced: false },
      { id: 'any-number', match: String.raw`\d+`, advanced: true },
      { id: 'price', match: 'price', advanced: false },
    ];
    expect(firstMatching(responders, 'price for 2?')?.id).toBe('any-number');
    expect(firstMatching(responders, 'price and hours')?.id).toBe('hours');
    expect(firstMatching(responders, 'price')?.id).toBe('price');
    expect(firstMatching(responders, 'hello')).toBeNull();
    expect(firstMatching([], 'hours')).toBeNull();
  });
});
