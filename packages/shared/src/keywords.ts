/*
 * Compliance keywords of incoming messages (carrier rules: STOP ends all messages, START brings them back,
 * HELP gets the business's contact details). The rule is deliberately narrow, so ordinary replies such as
 * "don't stop", "cancel my appointment" or "end of the day" are never read as keywords:
 *
 * 1. Normalise: Unicode NFKC, upper case; every character other than a letter, a digit, an apostrophe or
 *    white space becomes a space ("Stop." → STOP, "opt-out" → OPT OUT, "STOP 🛑" → STOP); split into words.
 * 2. A keyword: the text is at most two words that, written together, are a keyword ("Stop", "stop all",
 *    "opt out", "UN-SUBSCRIBE").
 * 3. Or a keyword phrase: at most three words, keywords of one kind and polite fillers (please, now, thanks,
 *    it, me, texts …) and nothing else ("stop please", "please stop", "Stop it now", "stop texting me",
 *    "help me", "yes please"). The first keyword of the phrase is the one reported.
 *
 * Everything else is not a keyword; what a keyword does is the messaging engine's business (an opt-in
 * keyword only acts for a contact who opted out or was blocked, so a plain "yes" in a conversation is safe).
 */

export const optOutKeywords = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const;
export const optInKeywords = ['START', 'UNSTOP', 'YES'] as const;
export const helpKeywords = ['HELP', 'INFO'] as const;

export type ComplianceKeywordKind = 'optOut' | 'optIn' | 'help';

export interface ComplianceKeyword {
  kind: ComplianceKeywordKind;
  /** The keyword as listed above (upper case). */
  keyword: string;
}

/** Words a keyword phrase may add to its keyword. */
export const keywordFillerWords: readonly string[] = [
  'PLEASE',
  'PLS',
  'PLZ',
  'NOW',
  'THANKS',
  'THANK',
  'YOU',
  'THX',
  'TY',
  'ALL',
  'IT',
  'ME',
  'MESSAGES',
  'MESSAGING',
  'TEXTS',
  'TEXTING',
  'SENDING',
  'SMS',
];

const MAX_PHRASE_WORDS = 3;

const kindOf = new Map<string, ComplianceKeywordKind>([
  ...optOutKeywords.map((k) => [k, 'optOut'] as const),
  ...optInKeywords.map((k) => [k, 'optIn'] as const),
  ...helpKeywords.map((k) => [k, 'help'] as const),
]);
const fillers = new Set(keywordFillerWords);

/** The words of a message as the rule reads them. */
export function keywordWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}'’\s]/gu, ' ')
    .split(/\s+/u)
    .filter((word) => word !== '');
}

/** The compliance keyword a message is, or null (see the rule at the top of this file). */
export function complianceKeyword(text: string): ComplianceKeyword | null {
  const words = keywordWords(text);
  if (words.length === 0) return null;
  if (words.length <= 2) {
    const joined = words.join('');
    const kind = kindOf.get(joined);
    if (kind !== undefined) return { kind, keyword: joined };
  }
  if (words.length > MAX_PHRASE_WORDS) return null;
  const keywords = words.filter((word) => kindOf.has(word));
  const first = keywords[0];
  if (first === undefined) return null;
  const kind = kindOf.get(first) as ComplianceKeywordKind;
  const plain = words.every((word) => fillers.has(word) || kindOf.get(word) === kind);
  return plain ? { kind, keyword: first } : null;
}
