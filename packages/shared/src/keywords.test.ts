import { describe, expect, it } from 'vitest';
import { complianceKeyword, helpKeywords, optInKeywords, optOutKeywords } from './keywords.js';

describe('compliance keywords', () => {
  it.each([...optOutKeywords])('%s alone opts out, in any case and with punctuation around it', (keyword) => {
    for (const text of [keyword, keyword.toLowerCase(), ` ${keyword[0]}${keyword.slice(1).toLowerCase()}. `, `${keyword}!!!`, `"${keyword}"`]) {
      expect(complianceKeyword(text), text).toEqual({ kind: 'optOut', keyword });
    }
  });

  it.each([...optInKeywords])('%s alone opts in', (keyword) => {
    expect(complianceKeyword(keyword.toLowerCase())).toEqual({ kind: 'optIn', keyword });
    expect(complianceKeyword(`${keyword}.`)).toEqual({ kind: 'optIn', keyword });
  });

  it.each([...helpKeywords])('%s alone asks for help', (keyword) => {
    expect(complianceKeyword(`${keyword.toLowerCase()}?`)).toEqual({ kind: 'help', keyword });
  });

  it.each([
    ['stop please', 'STOP'],
    ['Stop.', 'STOP'],
    ['STOP 🛑', 'STOP'],
    ['Stop it now', 'STOP'],
    ['stop texting me', 'STOP'],
    ['please stop', 'STOP'],
    ['thank you stop', 'STOP'],
    ['Stop all', 'STOPALL'],
    ['stop-all', 'STOPALL'],
    ['opt out', 'OPTOUT'],
    ['Opt-Out', 'OPTOUT'],
    ['un-subscribe', 'UNSUBSCRIBE'],
    ['unsubscribe me', 'UNSUBSCRIBE'],
    ['cancel please', 'CANCEL'],
    ['quit it', 'QUIT'],
    ['end now', 'END'],
    ['STOP STOP', 'STOP'],
    ['ｓｔｏｐ', 'STOP'],
  ])('%j opts out (%s)', (text, keyword) => {
    expect(complianceKeyword(text)).toEqual({ kind: 'optOut', keyword });
  });

  it.each([
    "don't stop",
    'Don’t stop',
    'do not stop',
    'stop by tomorrow',
    'Stop sending me messages every day',
    'cancel my appointment',
    'end of the day',
    'Quit your job',
    'stopping',
    'stops',
    'unstoppable',
    'I said stop',
    'stop start',
    'S.T.O.P.',
    '',
    '   ',
    '🛑',
    'Hello there',
  ])('%j is not a keyword', (text) => {
    expect(complianceKeyword(text)).toBeNull();
  });

  it.each([
    ['yes please', { kind: 'optIn', keyword: 'YES' }],
    ['Start again', null],
    ['Yes I will be there', null],
    ['unstop', { kind: 'optIn', keyword: 'UNSTOP' }],
    ['help me', { kind: 'help', keyword: 'HELP' }],
    ['Info please', { kind: 'help', keyword: 'INFO' }],
    ['I need help with my order', null],
    ['help stop', null],
  ])('%j → %j', (text, expected) => {
    expect(complianceKeyword(text)).toEqual(expected);
  });
});
