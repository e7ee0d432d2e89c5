import { SegmentedMessage } from 'sms-segments-calculator';
import { GSM_BASIC_CHARACTERS, GSM_EXTENSION_CHARACTERS, SMART_ENCODING_ENTRIES } from './segmentsTables.js';

/*
 * Message segments by Twilio's rules, with sms-segments-calculator as the reference. The library costs
 * ~150 µs a message (grapheme splitting, an object per character), too slow for campaign fan-out, so text
 * made only of GSM-7 characters (after smart encoding) is counted here in one pass over its code units;
 * everything else goes to the library. segments.test.ts checks that both agree.
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
  readonly encoding: SmsEncoding;
  readonly segments: number;
  /** In the encoding's units: GSM-7 septets (extension characters count 2) or UCS-2 (UTF-16) code units. */
  readonly characters: number;
  /** Units left in the last segment before one more is needed. */
  readonly charactersLeft: number;
  /** The characters (graphemes) that force UCS-2, each once, in order of appearance. */
  readonly nonGsmCharacters: readonly string[];
  /** The text as sent after smart encoding, present only when smart encoding changed something. */
  readonly replaced?: string;
}

export interface SegmentOptions {
  /** Twilio's smart encoding (curly quotes, dashes, ... sent as GSM-7 look-alikes); on by default. */
  readonly smartEncoding?: boolean;
}

/** Units a segment holds: alone, and as one part of a concatenated message (the header takes 6 octets). */
export const SEGMENT_LIMITS: Readonly<Record<SmsEncoding, { readonly single: number; readonly part: number }>> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

const GSM_SINGLE = SEGMENT_LIMITS['GSM-7'].single;
const GSM_PART = SEGMENT_LIMITS['GSM-7'].part;

/** Septets per UTF-16 code unit: 1 (basic set), 2 (extension table) or 0 (not GSM-7). */
const gsmWidth = new Uint8Array(0x10000);
for (const character of GSM_BASIC_CHARACTERS) gsmWidth[character.charCodeAt(0)] = 1;
for (const character of GSM_EXTENSION_CHARACTERS) gsmWidth[character.charCodeAt(0)] = 2;

/** Smart encoding by code unit (every key is a single BMP character whose replacement is GSM-7). */
const smartEncoding = new Map<number, string>(SMART_ENCODING_ENTRIES.map(([from, to]) => [from.charCodeAt(0), to]));

/** The text with smart encoding applied (code point by code point, as the library does). */
export function applySmartEncoding(text: string): string {
  let out = '';
  for (const character of text) out += smartEncoding.get(character.charCodeAt(0)) ?? character;
  return out;
}

/**
 * The fast path: the count for text that is GSM-7 once smart-encoded, or null for anything else.
 * Greedy packing by character, as the library does: a two-septet character never splits across parts.
 */
export function countGsmFast(text: string, options: SegmentOptions = {}): SegmentCount | null {
  const smart = options.smartEncoding ?? true;
  let total = 0;
  let parts = 1;
  let partUsed = 0;
  let changed = false;
  // Greedy packing into 153-septet parts alongside the total; used only when the total passes 160.
  const add = (width: number): void => {
    total += width;
    if (partUsed + width > GSM_PART) {
      parts++;
      partUsed = width;
    } else partUsed += width;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const width = gsmWidth[code] ?? 0;
    if (width !== 0) {
      add(width);
      continue;
    }
    const replacement = smart ? smartEncoding.get(code) : undefined;
    if (replacement === undefined) return null;
    changed = true;
    for (let j = 0; j < replacement.length; j++) add(gsmWidth[replacement.charCodeAt(j)] ?? 0);
  }
  const single = total <= GSM_SINGLE;
  const count: SegmentCount = {
    encoding: 'GSM-7',
    segments: single ? 1 : parts,
    characters: total,
    charactersLeft: single ? GSM_SINGLE - total : GSM_PART - partUsed,
    nonGsmCharacters: [],
  };
  return changed ? { ...count, replaced: applySmartEncoding(text) } : count;
}

const UCS2_SINGLE = SEGMENT_LIMITS['UCS-2'].single;
const UCS2_PART = SEGMENT_LIMITS['UCS-2'].part;

/*
 * BMP characters outside GSM-7 that are always a grapheme of their own (grapheme break property Other,
 * Control, LV or LVT: no combining marks, joiners, variation selectors, jamo or surrogates), so UCS-2
 * text made of them packs one code unit at a time without grapheme splitting. segments.test.ts checks
 * every one of them against the library's grapheme splitting.
 */
const UCS2_ATOMIC_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00a0, 0x02ff], // Latin-1 Supplement, Latin Extended-A and -B, IPA, spacing modifiers
  [0x0370, 0x0482], // Greek and Coptic, Cyrillic up to its combining marks
  [0x048a, 0x052f], // Cyrillic and Cyrillic Supplement
  [0x05d0, 0x05ea], // Hebrew letters (no points)
  [0x0621, 0x064a], // Arabic letters (no marks)
  [0x1e00, 0x1fff], // Latin Extended Additional, Greek Extended
  [0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
  [0x2030, 0x205e], // per mille, primes, guillemets, ...
  [0x20a0, 0x20bf], // currency signs
  [0x3001, 0x3029], // CJK punctuation (without its combining tone marks)
  [0x3041, 0x3096], // Hiragana
  [0x30a1, 0x30fa], // Katakana
  [0x4e00, 0x9fff], // CJK Unified Ideographs
  [0xac00, 0xd7a3], // Hangul syllables
  [0xff01, 0xff9d], // fullwidth forms, halfwidth Katakana (without its voiced sound marks)
];

/** 1 for a code unit that is UCS-2 and always a grapheme of its own. */
const ucs2Atomic = new Uint8Array(0x10000);
for (const [from, to] of UCS2_ATOMIC_RANGES) ucs2Atomic.fill(1, from, to + 1);

/** Whether the UCS-2 fast path takes this code unit as a grapheme of its own (for the tests). */
export function isSelfContainedUcs2(code: number): boolean {
  return ucs2Atomic[code] === 1;
}

/**
 * The fast path for UCS-2 text whose every character is its own grapheme (Cyrillic, Greek, CJK, Hangul,
 * accented Latin, ...): one code unit each, so packing is plain arithmetic. Null for anything else
 * (emoji, combining marks, other scripts), which goes to the library.
 */
function countUcs2Fast(text: string, smart: boolean): SegmentCount | null {
  let units = 0;
  let changed = false;
  const nonGsm = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (gsmWidth[code] !== 0) {
      units++;
      continue;
    }
    const replacement = smart ? smartEncoding.get(code) : undefined;
    if (replacement !== undefined) {
      changed = true;
      units += replacement.length;
    } else if (ucs2Atomic[code] === 1) {
      units++;
      nonGsm.add(text.charAt(i));
    } else return null;
  }
  const segments = units <= UCS2_SINGLE ? 1 : Math.ceil(units / UCS2_PART);
  const count: SegmentCount = {
    encoding: 'UCS-2',
    segments,
    characters: units,
    charactersLeft: segments === 1 ? UCS2_SINGLE - units : segments * UCS2_PART - units,
    nonGsmCharacters: [...nonGsm],
  };
  return changed ? { ...count, replaced: applySmartEncoding(text) } : count;
}

/** Both fast paths: GSM-7 text, then UCS-2 text of self-contained characters; null for the rest. */
export function countFast(text: string, options: SegmentOptions = {}): SegmentCount | null {
  return countGsmFast(text, options) ?? countUcs2Fast(text, options.smartEncoding ?? true);
}

/** The reference: the count as sms-segments-calculator gives it (used for everything the fast path declines). */
export function countWithLibrary(text: string, options: SegmentOptions = {}): SegmentCount {
  const smart = options.smartEncoding ?? true;
  const sent = smart ? applySmartEncoding(text) : text;
  const message = new SegmentedMessage(sent, 'auto', false);
  const encoding: SmsEncoding = message.encodingName;
  const bitsPerUnit = encoding === 'GSM-7' ? 7 : 16;
  const last = message.segments[message.segments.length - 1];
  const count: SegmentCount = {
    encoding,
    segments: message.segmentsCount,
    characters: message.messageSize / bitsPerUnit,
    charactersLeft: last === undefined ? 0 : Math.floor(last.freeSizeInBits() / bitsPerUnit),
    nonGsmCharacters: [...new Set(message.getNonGsmCharacters())],
  };
  return sent === text ? count : { ...count, replaced: sent };
}

/** Segments, encoding and characters left for a message body, as the carrier will count them. */
export function countSegments(text: string, options: SegmentOptions = {}): SegmentCount {
  return countFast(text, options) ?? countWithLibrary(text, options);
}

export interface GsmReplacement {
  /** A character (code point) that forces UCS-2. */
  readonly character: string;
  /** The GSM-7 look-alike put in its place ('' when only a mark is dropped). */
  readonly replacement: string;
}

export interface GsmReplacementResult {
  /** The text with every character that has a look-alike replaced. */
  readonly text: string;
  /** What was replaced, each character once, in order of appearance. */
  readonly replacements: readonly GsmReplacement[];
  /** Code points with no GSM-7 look-alike (the text stays UCS-2 while any remain), each once. */
  readonly remaining: readonly string[];
}

const COMBINING_MARKS = /\p{M}/gu;

function isGsm(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (gsmWidth[text.charCodeAt(i)] === 0) return false;
  return true;
}

/** A GSM-7 look-alike for one character outside GSM-7, or null when there is none. */
function lookAlike(character: string): string | null {
  const smart = character.length === 1 ? smartEncoding.get(character.charCodeAt(0)) : undefined;
  if (smart !== undefined) return smart;
  // Compatibility forms and accents: 'á' → 'a', 'ｆｕｌｌ' → 'full', '𝐁' → 'B', 'ﬁ' → 'fi'.
  const stripped = character.normalize('NFKD').replace(COMBINING_MARKS, '');
  return isGsm(stripped) ? stripped : null;
}

/**
 * The editor's one-click fix: every character that forces UCS-2 and has a GSM-7 look-alike (smart
 * encoding's table, then the character without its accents or compatibility form), replaced. A GSM-7
 * character that merely has an accent in GSM-7 ('é', 'ñ', 'ü') is left alone.
 */
export function gsmReplacements(text: string): GsmReplacementResult {
  const replacements = new Map<string, string>();
  const remaining = new Set<string>();
  let out = '';
  for (const character of text) {
    if (isGsm(character)) {
      out += character;
      continue;
    }
    const known = replacements.get(character);
    const replacement = known ?? (remaining.has(character) ? null : lookAlike(character));
    if (replacement === null) {
      remaining.add(character);
      out += character;
      continue;
    }
    replacements.set(character, replacement);
    out += replacement;
  }
  return {
    text: out,
    replacements: [...replacements].map(([character, replacement]) => ({ character, replacement })),
    remaining: [...remaining],
  };
}
