import { RE2JS, RE2JSException } from 're2js';
import { INVALID_PATTERN_PREFIX } from '@parley/shared';

/*
 * How an auto responder's match is tried against an inbound message (docs/autoResponders.md).
 *
 * Simple: the match is a word or phrase that must appear whole, ignoring case: 'price' matches "What's the
 * price?" and "PRICE", never "priceless". A word is letters, marks, digits and '_' of any script; blanks
 * inside the phrase match any run of blanks. The side of a phrase that ends in punctuation ('c++', '$5')
 * needs no boundary there.
 *
 * Advanced: the match is a regular expression in RE2 syntax run by re2js, found anywhere in the message,
 * case-insensitive unless the pattern turns it off with (?-i). RE2 runs in time linear in the text, so no
 * pattern (not even (a+)+$) can stall inbound messages; the price is that backreferences and lookaround do
 * not exist, and a pattern using them is refused when it is saved.
 */

export interface ResponderMatch {
  match: string;
  advanced: boolean;
}

/** A compiled matcher: true when the text answers to it. */
export type TextMatcher = (text: string) => boolean;

const WORD = String.raw`[\p{L}\p{M}\p{N}_]`;
const startsWithWord = new RegExp(`^${WORD}`, 'u');
const endsWithWord = new RegExp(`${WORD}$`, 'u');
// Only the characters a 'u' RegExp lets be escaped outside a class (it refuses \- and the like).
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The Simple match as a JavaScript RegExp: the escaped phrase (blanks as \s+) between Unicode word
 * boundaries. Only literal text and \s+ between fixed characters: nothing in it can backtrack badly.
 */
export function simplePattern(match: string): RegExp {
  const phrase = match.trim().normalize('NFC');
  const body = phrase
    .split(/\s+/u)
    .map(escapeRegExp)
    .join(String.raw`\s+`);
  const before = startsWithWord.test(phrase) ? `(?<!${WORD})` : '';
  const after = endsWithWord.test(phrase) ? `(?!${WORD})` : '';
  return new RegExp(`${before}${body}${after}`, 'iu');
}

const backreference = /\\[1-9]/;
const lookaround = /\(\?<?[=!]/;

/**
 * Why an Advanced match cannot be used, as the message the API answers ('Invalid regular expression: ...'),
 * or null when RE2 compiles it. Compiled without flags, so the message quotes the pattern as written.
 */
export function patternProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    // RE2 says "invalid escape sequence" and "invalid named capture" for these: name them plainly.
    if (backreference.test(pattern) && error.message.includes('escape')) {
      return `${INVALID_PATTERN_PREFIX}backreferences such as \\1 are not supported`;
    }
    if (lookaround.test(pattern)) {
      return `${INVALID_PATTERN_PREFIX}lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported`;
    }
    return `${INVALID_PATTERN_PREFIX}${error.message.replace(/^error parsing regexp: /, '')}`;
  }
}

// Compiled matchers by kind and pattern: an account's responders are tried on each of its inbound messages.
const CACHE_MAX = 2000;
const cache = new Map<string, TextMatcher>();

function compile(responder: ResponderMatch): TextMatcher {
  if (!responder.advanced) {
    const pattern = simplePattern(responder.match);
    return (text) => pattern.test(text);
  }
  const pattern = RE2JS.compile(responder.match, RE2JS.CASE_INSENSITIVE);
  return (text) => pattern.test(text);
}

/**
 * The matcher of a responder, compiled once and kept (bounded; the oldest goes first). A stored Advanced
 * pattern that no longer compiles (saved before a stricter check) matches nothing rather than failing the
 * inbound message.
 */
export function matcherFor(responder: ResponderMatch): TextMatcher {
  const key = `${responder.advanced ? 'a' : 's'}:${responder.match}`;
  let matcher = cache.get(key);
  if (matcher === undefined) {
    try {
      matcher = compile(responder);
    } catch (error) {
      if (!(error instanceof RE2JSException)) throw error;
      matcher = () => false;
    }
    if (cache.size >= CACHE_MAX) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    cache.set(key, matcher);
  }
  return matcher;
}

/** The first responder (in the order given: oldest first) whose match the text answers to, or null. */
export function firstMatching<T extends ResponderMatch>(responders: readonly T[], text: string): T | null {
  // One normal form for the text and the matches: 'é' typed as one character or as 'e' and an accent.
  const normalized = text.normalize('NFC');
  for (const responder of responders) {
    if (matcherFor(responder)(normalized)) return responder;
  }
  return null;
}
