import { describe, expect, it } from 'vitest';
import {
  contactTokenFields,
  isTokenName,
  knownTokens,
  parseTemplate,
  renderTemplate,
  templateTokensOf,
  tokenText,
  type TemplateContact,
  type TemplatePart,
} from './templateTokens.js';
import type { Contact } from './api/contacts.js';

const ada: TemplateContact = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  mobile: { number: '+14155552671' },
  email: 'ada@example.test',
  attributes: { plan: 'Gold', appointment_1: 'Tuesday 3pm', empty: '', blank: '   ' },
};
const accountAttributes = ['appointment_1', 'blank', 'empty', 'plan', 'visits'];

/** The parts as [kind, text-or-name] pairs, for short assertions. */
const shape = (parts: TemplatePart[]): [string, string][] => parts.map((p) => [p.kind, p.kind === 'text' ? p.text : p.name]);

describe('parseTemplate', () => {
  it('finds tokens with their positions and the literal text between them', () => {
    const text = 'Hi {{{firstName}}}, see you {{{appointment_1}}}.';
    const { parts, tokens } = parseTemplate(text);
    expect(parts).toEqual([
      { kind: 'text', text: 'Hi ', start: 0, end: 3 },
      { kind: 'token', name: 'firstName', raw: '{{{firstName}}}', start: 3, end: 18 },
      { kind: 'text', text: ', see you ', start: 18, end: 28 },
      { kind: 'token', name: 'appointment_1', raw: '{{{appointment_1}}}', start: 28, end: 47 },
      { kind: 'text', text: '.', start: 47, end: 48 },
    ]);
    expect(tokens).toEqual([parts[1], parts[3]]);
    for (const part of parts) expect(text.slice(part.start, part.end)).toBe(part.kind === 'text' ? part.text : part.raw);
  });

  it('gives no parts for an empty text and one literal part for a text without tokens', () => {
    expect(parseTemplate('')).toEqual({ parts: [], tokens: [] });
    expect(parseTemplate('Hello there')).toEqual({ parts: [{ kind: 'text', text: 'Hello there', start: 0, end: 11 }], tokens: [] });
  });

  it('reads a token at the start, at the end and as the whole text', () => {
    expect(shape(parseTemplate('{{{firstName}}} hi').parts)).toEqual([['token', 'firstName'], ['text', ' hi']]);
    expect(shape(parseTemplate('hi {{{firstName}}}').parts)).toEqual([['text', 'hi '], ['token', 'firstName']]);
    expect(parseTemplate('{{{email}}}').parts).toEqual([{ kind: 'token', name: 'email', raw: '{{{email}}}', start: 0, end: 11 }]);
  });

  it('reads adjacent tokens with no text between them', () => {
    const { parts } = parseTemplate('{{{firstName}}}{{{lastName}}}{{{firstName}}}');
    expect(shape(parts)).toEqual([['token', 'firstName'], ['token', 'lastName'], ['token', 'firstName']]);
    expect(parts.map((p) => [p.start, p.end])).toEqual([[0, 15], [15, 29], [29, 44]]);
  });

  it('allows spaces inside the braces and keeps them in raw', () => {
    const { tokens } = parseTemplate('a {{{ firstName }}} b {{{   plan}}} c {{{email   }}}');
    expect(tokens.map((t) => [t.name, t.raw])).toEqual([
      ['firstName', '{{{ firstName }}}'],
      ['plan', '{{{   plan}}}'],
      ['email', '{{{email   }}}'],
    ]);
  });

  it('treats other whitespace inside the braces as literal text', () => {
    for (const text of ['{{{\tfirstName}}}', '{{{firstName\n}}}', '{{{\u00a0firstName}}}', '{{{ first Name }}}']) {
      expect(parseTemplate(text).tokens, text).toEqual([]);
    }
  });

  it('treats double braces and malformed tokens as literal text', () => {
    for (const text of [
      '{{firstName}}',
      '{{{firstName}}',
      '{{firstName}}}',
      '{{{ }}}',
      '{{{}}}',
      '{{{1st}}}',
      '{{{_hidden}}}',
      '{{{first-name}}}',
      '{{{first.name}}}',
      '{{{first name}}}',
      '{{{firstName',
      'firstName}}}',
      '{ {{firstName}}}',
      '{{{firstName} }}',
      '{{{firstName}}',
    ]) {
      expect(parseTemplate(text).parts, text).toEqual([{ kind: 'text', text, start: 0, end: text.length }]);
    }
  });

  it('keeps extra braces around a token as text', () => {
    expect(shape(parseTemplate('{{{{firstName}}}}').parts)).toEqual([['text', '{'], ['token', 'firstName'], ['text', '}']]);
    expect(shape(parseTemplate('{{{{{{x}}}}}}').parts)).toEqual([['text', '{{{'], ['token', 'x'], ['text', '}}}']]);
    expect(shape(parseTemplate('{{{a}}}}}}').parts)).toEqual([['token', 'a'], ['text', '}}}']]);
  });

  it('keeps braces used in the text and finds a token after a malformed one', () => {
    const { parts } = parseTemplate('Use {curly} and {{double}} and {{{bad name}}} then {{{plan}}}!');
    expect(shape(parts)).toEqual([
      ['text', 'Use {curly} and {{double}} and {{{bad name}}} then '],
      ['token', 'plan'],
      ['text', '!'],
    ]);
    expect(shape(parseTemplate('{{{a {{{b}}}').parts)).toEqual([['text', '{{{a '], ['token', 'b']]);
    expect(shape(parseTemplate('{{{a}} {{{b}}}').parts)).toEqual([['text', '{{{a}} '], ['token', 'b']]);
  });

  it("reads the hosted product's {{{contact.<name>}}} as the name alone, keeping raw as written", () => {
    const { tokens } = parseTemplate('Hi {{{contact.firstName}}} {{{ contact.city }}}');
    expect(tokens.map((t) => [t.name, t.raw])).toEqual([
      ['firstName', '{{{contact.firstName}}}'],
      ['city', '{{{ contact.city }}}'],
    ]);
    // Only that prefix, and only before a name.
    expect(parseTemplate('{{{contact.}}} {{{Contact.firstName}}} {{{account.name}}} {{{contact.contact.x}}}').tokens).toEqual([]);
    expect(renderTemplate('Hi {{{contact.firstName}}}', { firstName: 'Joe' }, []).text).toBe('Hi Joe');
  });

  it('is case-sensitive and keeps the name as written', () => {
    expect(parseTemplate('{{{FIRSTNAME}}} {{{firstname}}}').tokens.map((t) => t.name)).toEqual(['FIRSTNAME', 'firstname']);
  });

  it('handles unicode text around tokens, with positions in string indices', () => {
    const text = 'Olá 👋 {{{firstName}}} — ça va? 日本';
    const { parts } = parseTemplate(text);
    expect(shape(parts)).toEqual([['text', 'Olá 👋 '], ['token', 'firstName'], ['text', ' — ça va? 日本']]);
    const token = parts[1];
    expect(token && text.slice(token.start, token.end)).toBe('{{{firstName}}}');
    expect(token?.start).toBe(7); // the emoji is two UTF-16 code units
  });

  it('takes only ASCII names: accented letters are literal text', () => {
    expect(parseTemplate('{{{prénom}}} {{{名前}}}').tokens).toEqual([]);
  });

  describe('pathological inputs (one pass: every text comes back whole)', () => {
    const n = 100_000;
    const joined = (parts: TemplatePart[]): string => parts.map((p) => (p.kind === 'text' ? p.text : p.raw)).join('');

    it.each([
      ['repeated {{{', '{{{'.repeat(n / 3)],
      ['a run of braces', '{'.repeat(n)],
      ['unclosed tokens', '{{{ a'.repeat(n / 5)],
      ['one long unclosed name', `{{{${'a'.repeat(n)}`],
      ['long spaces with no name', `{{{${' '.repeat(n)}}}}`],
      ['names closed by two braces', '{{{ab}}'.repeat(n / 7)],
      ['closing braces', '}'.repeat(n)],
    ])('%s: no tokens', (_label, text) => {
      const { parts, tokens } = parseTemplate(text);
      expect(tokens).toEqual([]);
      expect(parts).toEqual([{ kind: 'text', text, start: 0, end: text.length }]);
    });

    it('a long run of braces before a token leaves the last three to the token', () => {
      const text = `${'{'.repeat(n)}firstName}}}`;
      const { parts } = parseTemplate(text);
      expect(parts.map((p) => [p.kind, p.start, p.end])).toEqual([
        ['text', 0, n - 3],
        ['token', n - 3, text.length],
      ]);
    });

    it('many tokens', () => {
      const text = '{{{a}}}.'.repeat(n / 8);
      const { parts, tokens } = parseTemplate(text);
      expect(tokens).toHaveLength(n / 8);
      expect(joined(parts)).toBe(text);
    });
  });

  it('agrees with the grammar written as a regular expression on generated texts', () => {
    // The grammar as a (slower, reference-only) regular expression.
    const reference = (text: string): [number, number, string][] =>
      [...text.matchAll(/\{\{\{ *(?:contact\.)?([A-Za-z][A-Za-z0-9_]*) *\}\}\}/g)].map((m) => [m.index, m.index + m[0].length, m[1] ?? '']);
    const alphabet = ['{', '}', ' ', 'a', 'B', '1', '_', '-', '{{{', '}}}', 'é', 'contact.', '.'];
    let seed = 20260521;
    const random = (max: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % max;
    };
    for (let round = 0; round < 3000; round++) {
      let text = '';
      const length = random(24);
      for (let i = 0; i < length; i++) text += alphabet[random(alphabet.length)] ?? '';
      const { parts, tokens } = parseTemplate(text);
      expect(tokens.map((t) => [t.start, t.end, t.name]), text).toEqual(reference(text));
      expect(parts.map((p) => (p.kind === 'text' ? p.text : p.raw)).join(''), text).toBe(text);
      for (let i = 1; i < parts.length; i++) {
        expect(parts[i]?.start).toBe(parts[i - 1]?.end);
        expect(parts[i]?.kind === 'text' && parts[i - 1]?.kind === 'text', text).toBe(false);
      }
    }
  });
});

describe('renderTemplate', () => {
  it('inserts every contact field', () => {
    expect(renderTemplate('{{{firstName}}}|{{{lastName}}}|{{{mobile}}}|{{{email}}}', ada, accountAttributes)).toEqual({
      text: 'Ada|Lovelace|+14155552671|ada@example.test',
      missing: [],
      unknown: [],
    });
  });

  it('inserts attributes of the account', () => {
    expect(renderTemplate('Your {{{plan}}} visit: {{{ appointment_1 }}}', ada, accountAttributes)).toEqual({
      text: 'Your Gold visit: Tuesday 3pm',
      missing: [],
      unknown: [],
    });
  });

  it('renders an absent, null, empty or blank value as nothing and lists it as missing, once', () => {
    const sparse: TemplateContact = { firstName: '', lastName: null, mobile: null, email: null, attributes: { empty: '', blank: '  ' } };
    expect(
      renderTemplate('[{{{firstName}}}][{{{lastName}}}][{{{mobile}}}][{{{email}}}][{{{empty}}}][{{{blank}}}][{{{visits}}}][{{{firstName}}}]', sparse, accountAttributes),
    ).toEqual({ text: '[][][][][][][][]', missing: ['firstName', 'lastName', 'mobile', 'email', 'empty', 'blank', 'visits'], unknown: [] });
    expect(renderTemplate('Hi {{{firstName}}}{{{visits}}}', {}, ['visits'])).toEqual({ text: 'Hi ', missing: ['firstName', 'visits'], unknown: [] });
  });

  it('renders an unknown token as nothing and lists it as unknown, once, not as missing', () => {
    expect(renderTemplate('A{{{nickname}}}B{{{plan}}}C{{{nickname}}}', ada, accountAttributes)).toEqual({
      text: 'ABGoldC',
      missing: [],
      unknown: ['nickname'],
    });
  });

  it('treats a name the account does not have as unknown even when the contact holds it', () => {
    expect(renderTemplate('{{{plan}}}', ada, ['visits'])).toEqual({ text: '', missing: [], unknown: ['plan'] });
  });

  it('knows the contact own attribute names when no account names are given', () => {
    expect(renderTemplate('{{{plan}}}/{{{empty}}}/{{{visits}}}', ada)).toEqual({ text: 'Gold//', missing: ['empty'], unknown: ['visits'] });
    expect(renderTemplate('{{{firstName}}} {{{plan}}}', { firstName: 'Bo' })).toEqual({ text: 'Bo ', missing: [], unknown: ['plan'] });
  });

  it('is case-sensitive: a name in another case is a different, unknown token', () => {
    expect(renderTemplate('{{{FirstName}}} {{{PLAN}}} {{{firstName}}}', ada, accountAttributes)).toEqual({
      text: '  Ada',
      missing: [],
      unknown: ['FirstName', 'PLAN'],
    });
  });

  it('does not read inherited object properties as attributes', () => {
    expect(renderTemplate('{{{constructor}}}{{{toString}}}', { attributes: {} }, ['constructor', 'toString'])).toEqual({
      text: '',
      missing: ['constructor', 'toString'],
      unknown: [],
    });
    expect(renderTemplate('{{{constructor}}}', { attributes: {} }).unknown).toEqual(['constructor']);
  });

  it('inserts values as they are: no escaping, no trimming, unicode kept', () => {
    const contact: TemplateContact = {
      firstName: 'Zoë 🌷',
      attributes: { note: '<b>&"{{{firstName}}}"</b>', padded: ' x ' },
    };
    expect(renderTemplate('{{{firstName}}}:{{{note}}}:{{{padded}}}', contact)).toEqual({
      text: 'Zoë 🌷:<b>&"{{{firstName}}}"</b>: x ',
      missing: [],
      unknown: [],
    });
  });

  it('leaves literal braces and malformed tokens in the text', () => {
    expect(renderTemplate('{{firstName}} {x} {{{first name}}} {{{{firstName}}}}', ada, accountAttributes)).toEqual({
      text: '{{firstName}} {x} {{{first name}}} {Ada}',
      missing: [],
      unknown: [],
    });
  });

  it('renders a text without tokens unchanged, and an empty one as empty', () => {
    expect(renderTemplate('Plain text 😀', ada)).toEqual({ text: 'Plain text 😀', missing: [], unknown: [] });
    expect(renderTemplate('', ada)).toEqual({ text: '', missing: [], unknown: [] });
  });

  it('accepts the API contact record', () => {
    const contact: Contact = {
      id: '0195f3a0-0000-7000-8000-000000000001',
      firstName: 'Grace',
      lastName: 'Hopper',
      mobile: { number: '+447400123456', country: 'GB' },
      tags: [],
      attributes: { plan: 'Silver' },
      valid: true,
      created: { at: '2026-01-01T00:00:00.000Z' },
      updated: { at: '2026-01-01T00:00:00.000Z' },
      lists: [],
    };
    expect(renderTemplate('{{{firstName}}} {{{lastName}}} {{{mobile}}} {{{email}}} {{{plan}}}', contact, ['plan'])).toEqual({
      text: 'Grace Hopper +447400123456  Silver',
      missing: ['email'],
      unknown: [],
    });
  });
});

describe('templateTokensOf', () => {
  it('lists each token name once, in order of first use', () => {
    expect(templateTokensOf('{{{plan}}} {{{firstName}}}{{{ plan }}} {{firstName}} {{{Plan}}}')).toEqual(['plan', 'firstName', 'Plan']);
    expect(templateTokensOf('no tokens {{here}}')).toEqual([]);
  });
});

describe('knownTokens', () => {
  it('lists the four fields, then the account attributes in the order given', () => {
    expect(knownTokens([])).toEqual(['firstName', 'lastName', 'mobile', 'email']);
    expect(knownTokens(['visits', 'plan'])).toEqual(['firstName', 'lastName', 'mobile', 'email', 'visits', 'plan']);
    expect(knownTokens(new Set(['plan']))).toEqual([...contactTokenFields, 'plan']);
  });

  it('leaves out repeats, contact fields and names that cannot be tokens', () => {
    expect(knownTokens(['plan', 'plan', 'email', 'bad name', '', '1st', 'ok_2'])).toEqual([
      'firstName',
      'lastName',
      'mobile',
      'email',
      'plan',
      'ok_2',
    ]);
  });

  it('gives names that parse back as themselves', () => {
    for (const name of knownTokens(['plan', 'appointment_1'])) expect(templateTokensOf(tokenText(name))).toEqual([name]);
  });
});

describe('isTokenName', () => {
  it('follows the attribute-name rule', () => {
    expect(['a', 'firstName', 'A1_b', 'x_'].every(isTokenName)).toBe(true);
    expect(['', '1a', '_a', 'a-b', 'a b', 'é', 'a.b'].some(isTokenName)).toBe(false);
  });
});
