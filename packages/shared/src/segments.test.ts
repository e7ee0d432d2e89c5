import { createRequire } from 'node:module';
import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './seededRandom.js';
import { countFast, countGsmFast, countSegments, gsmReplacements, isSelfContainedUcs2, type SegmentCount } from './segments.js';
import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS, SMART_ENCODING_ENTRIES } from './segmentsTables.js';

const require = createRequire(import.meta.url);

/** The count by the library alone, its own smart encoding included: the reference. */
function reference(text: string, smartEncoding = true): SegmentCount {
  const message = new SegmentedMessage(text, 'auto', smartEncoding);
  const bits = message.encodingName === 'GSM-7' ? 7 : 16;
  const last = message.segments[message.segments.length - 1];
  const sent = message.graphemes.join('');
  const count: SegmentCount = {
    encoding: message.encodingName,
    segments: message.segmentsCount,
    characters: message.messageSize / bits,
    charactersLeft: last === undefined ? -1 : Math.floor(last.freeSizeInBits() / bits),
    nonGsmCharacters: [...new Set(message.getNonGsmCharacters())],
  };
  return sent === text ? count : { ...count, replaced: sent };
}

const BASIC = Array.from(GSM_BASIC_CHARACTERS);
const EXTENSION = Array.from(GSM_EXTENSION_CHARACTERS);
const SMART = SMART_ENCODING_ENTRIES.map(([from]) => from);
const UNICODE = [
  ...Array.from('жщЖΩαβγπ中文字한국어ąęłśźżőűçáíóúâêôãõ'),
  '😀', '👍🏽', '👨‍👩‍👧', '🇬🇧', 'e\u0301', '\u200d', '\ud83d', '𝐁', 'ﬁ',
];
/** Random self-contained UCS-2 characters (the UCS-2 fast path's). */
const ATOMIC: string[] = [];
for (let code = 0; code < 0x10000; code++) if (isSelfContainedUcs2(code)) ATOMIC.push(String.fromCharCode(code));
const ATOMIC_SAMPLE = ATOMIC.filter((_, i) => i % 37 === 0);
const BOUNDARY_LENGTHS = [0, 1, 66, 67, 68, 69, 70, 71, 134, 135, 152, 153, 154, 159, 160, 161, 305, 306, 307, 459, 460, 461];

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('empty choice');
  return item;
}

function randomText(random: () => number, alphabets: readonly (readonly string[])[]): string {
  const length = random() < 0.5 ? pick(random, BOUNDARY_LENGTHS) : Math.floor(random() * 480);
  let text = '';
  for (let i = 0; i < length; i++) text += pick(random, pick(random, alphabets));
  return text;
}

describe('segment tables', () => {
  it('hold exactly the installed library’s GSM-7 and smart-encoding tables', () => {
    const gsm = (require('sms-segments-calculator/dist/libs/UnicodeToGSM.js') as { default: Record<string, number[]> })
      .default;
    const smart = (require('sms-segments-calculator/dist/libs/SmartEncodingMap.js') as { default: Record<string, string> })
      .default;
    const basic = Object.keys(gsm).filter((code) => gsm[code]?.length === 1);
    const extension = Object.keys(gsm).filter((code) => gsm[code]?.length === 2);
    expect(new Set(BASIC.map((c) => String(c.charCodeAt(0))))).toEqual(new Set(basic));
    expect(new Set(EXTENSION.map((c) => String(c.charCodeAt(0))))).toEqual(new Set(extension));
    expect(Object.fromEntries(SMART_ENCODING_ENTRIES)).toEqual(smart);
  });
});

describe('countSegments', () => {
  it('counts an empty message as one GSM-7 segment with 160 left, as the reference does', () => {
    expect(countSegments('')).toEqual({ encoding: 'GSM-7', segments: 1, characters: 0, charactersLeft: 160, nonGsmCharacters: [] });
    expect(reference('')).toEqual(countSegments(''));
  });

  it('fits 160 GSM-7 characters in one segment and splits 161 into parts of 153', () => {
    expect(countSegments('a'.repeat(160))).toMatchObject({ segments: 1, characters: 160, charactersLeft: 0 });
    expect(countSegments('a'.repeat(161))).toMatchObject({ segments: 2, characters: 161, charactersLeft: 145 });
    expect(countSegments('a'.repeat(306))).toMatchObject({ segments: 2, charactersLeft: 0 });
    expect(countSegments('a'.repeat(307))).toMatchObject({ segments: 3, charactersLeft: 152 });
  });

  it('counts extension characters as two septets and never splits one across parts', () => {
    expect(countSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', segments: 1, characters: 160 });
    expect(countSegments(`${'a'.repeat(159)}€`)).toMatchObject({ segments: 2, characters: 161 });
    // 152 septets, then '€' does not fit in the first part's 153: it starts the second.
    expect(countSegments(`${'a'.repeat(152)}€${'a'.repeat(10)}`)).toMatchObject({ segments: 2, charactersLeft: 141 });
  });

  it('counts UCS-2 in code units, 70 alone and 67 a part, keeping surrogate pairs whole', () => {
    expect(countSegments('ж'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1, characters: 70, charactersLeft: 0 });
    expect(countSegments('ж'.repeat(71))).toMatchObject({ segments: 2, characters: 71, charactersLeft: 63 });
    const split = `${'ж'.repeat(66)}😀${'ж'.repeat(5)}`;
    expect(countSegments(split)).toMatchObject({ segments: 2, characters: 73, charactersLeft: 60 });
    expect(countSegments(split)).toEqual(reference(split));
  });

  it('smart-encodes look-alikes by default and reports the text sent', () => {
    const text = '“Hi” — it’s 5…';
    expect(countSegments(text)).toEqual({
      encoding: 'GSM-7',
      segments: 1,
      characters: 16,
      charactersLeft: 144,
      nonGsmCharacters: [],
      replaced: '"Hi" - it\'s 5...',
    });
  });

  it('without smart encoding, lists the characters that force UCS-2 once each, in order', () => {
    expect(countSegments('“Hi” “there” ж', { smartEncoding: false })).toMatchObject({
      encoding: 'UCS-2',
      nonGsmCharacters: ['“', '”', 'ж'],
    });
    expect(countSegments('“Hi”', { smartEncoding: false })).not.toHaveProperty('replaced');
  });

  it('reports the smart-encoded text also when other characters keep it UCS-2', () => {
    expect(countSegments('“ж”')).toMatchObject({ encoding: 'UCS-2', replaced: '"ж"', nonGsmCharacters: ['ж'] });
  });

  it('agrees with the library on thousands of random and edge-case texts (fast path and fallback)', () => {
    const random = seededRandom(20261121);
    const gsmOnly = [BASIC, EXTENSION, SMART, ['\r\n', '\n', ' ']];
    const ucs2Simple = [...gsmOnly, ATOMIC_SAMPLE, ATOMIC_SAMPLE];
    const mixed = [...gsmOnly, ATOMIC_SAMPLE, UNICODE];
    const kinds = [gsmOnly, gsmOnly, ucs2Simple, mixed];
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const text = randomText(random, pick(random, kinds));
      const smart = random() < 0.8;
      const fastCount = countFast(text, { smartEncoding: smart });
      if (fastCount !== null) fast++;
      const expected = reference(text, smart);
      expect(countSegments(text, { smartEncoding: smart }), JSON.stringify(text)).toEqual(expected);
      if (fastCount !== null) expect(fastCount, JSON.stringify(text)).toEqual(expected);
    }
    // The fast paths really ran (GSM-7 and simple UCS-2 texts), not only the fallback.
    expect(fast).toBeGreaterThan(1500);
  }, 60_000);

  it('treats as self-contained only characters the library never joins into a larger grapheme', () => {
    // Each character twice in a row, and after a Latin letter: a joining rule would merge graphemes.
    for (let start = 0; start < ATOMIC.length; start += 1000) {
      const chunk = ATOMIC.slice(start, start + 1000).flatMap((character) => ['a', character, character]);
      expect(new SegmentedMessage(chunk.join(''), 'UCS-2', false).graphemes).toEqual(chunk);
    }
  }, 60_000);

  it('takes the UCS-2 fast path for Cyrillic, CJK and accented Latin, and not for emoji or marks', () => {
    expect(countFast('Привет, мир! 你好 Olá ½')).toMatchObject({ encoding: 'UCS-2', replaced: 'Привет, мир! 你好 Olá 1/2' });
    expect(countFast('ж'.repeat(134))).toMatchObject({ segments: 2, charactersLeft: 0 });
    expect(countFast('ж'.repeat(135))).toMatchObject({ segments: 3, charactersLeft: 66 });
    expect(countFast('ж😀')).toBeNull();
    expect(countFast('же\u0301')).toBeNull();
  });

  it('takes the fast path for every GSM-7 text once smart-encoded', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 500; i++) {
      const text = randomText(random, [BASIC, EXTENSION, SMART]);
      expect(countGsmFast(text), JSON.stringify(text)).not.toBeNull();
    }
    expect(countGsmFast('ж')).toBeNull();
    expect(countGsmFast('“', { smartEncoding: false })).toBeNull();
  });
});

describe('gsmReplacements', () => {
  it('replaces characters that have a GSM-7 look-alike and keeps GSM-7 accents', () => {
    const result = gsmReplacements('Olá, ça va? “Sí” ½ café ﬁne 𝐁');
    expect(result.text).toBe('Ola, ca va? "Si" 1/2 café fine B');
    expect(result.replacements).toEqual([
      { character: 'á', replacement: 'a' },
      { character: 'ç', replacement: 'c' },
      { character: '“', replacement: '"' },
      { character: 'í', replacement: 'i' },
      { character: '”', replacement: '"' },
      { character: '½', replacement: '1/2' },
      { character: 'ﬁ', replacement: 'fi' },
      { character: '𝐁', replacement: 'B' },
    ]);
    expect(result.remaining).toEqual([]);
    expect(countSegments(result.text, { smartEncoding: false }).encoding).toBe('GSM-7');
  });

  it('lists what has no look-alike, once each, and leaves it in place', () => {
    const result = gsmReplacements('Привет 😀 á 😀');
    expect(result.text).toBe('Привет 😀 a 😀');
    expect(result.remaining).toEqual([...Array.from('Привет'), '😀']);
    expect(result.replacements).toEqual([{ character: 'á', replacement: 'a' }]);
  });

  it('changes nothing in GSM-7 text', () => {
    expect(gsmReplacements('Hi {name}, 50€ off!')).toEqual({ text: 'Hi {name}, 50€ off!', replacements: [], remaining: [] });
  });
});
