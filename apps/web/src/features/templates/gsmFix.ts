import { gsmReplacements, type GsmReplacement } from '@parley/shared';

export interface GsmFix {
  /** The template with every character that has a GSM-7 look-alike replaced. */
  text: string;
  /** The replacements that take away a reason for UCS-2 (what the one click changes that matters). */
  replacements: readonly GsmReplacement[];
  /** Characters forcing UCS-2 that have no look-alike: the message stays UCS-2 while they remain. */
  remaining: readonly string[];
}

/**
 * The one-click GSM-7 fix for a template whose message is sent as UCS-2: `nonGsmCharacters` are the
 * characters (graphemes) the segment count says force UCS-2. Null when no replacement would remove one of
 * them (an emoji alone, or only characters that come from a contact's values rather than the text).
 */
export function gsmFixFor(template: string, nonGsmCharacters: readonly string[]): GsmFix | null {
  if (nonGsmCharacters.length === 0) return null;
  const result = gsmReplacements(template);
  // A replacement is a code point; a forcing character may be a grapheme of several (e + combining accent).
  const forces = (character: string): boolean => nonGsmCharacters.some((grapheme) => grapheme.includes(character));
  const replacements = result.replacements.filter((r) => forces(r.character));
  if (replacements.length === 0) return null;
  return { text: result.text, replacements, remaining: result.remaining.filter(forces) };
}

/** 'á → a', with a visible name for what is hard to see (a non-breaking space, a dropped mark). */
export const describeReplacement = ({ character, replacement }: GsmReplacement): string =>
  `${visible(character)} → ${replacement === '' ? '(nothing)' : visible(replacement)}`;

const visible = (text: string): string => {
  if (text === '\u00a0') return 'non-breaking space';
  if (text === ' ') return 'space';
  if (/^\p{M}+$/u.test(text)) return `accent ◌${text}`;
  if (/^\s+$/u.test(text)) return 'a space';
  return text;
};
