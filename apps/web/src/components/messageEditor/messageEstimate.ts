import {
  countSegments,
  MESSAGE_TEXT_MAX,
  MESSAGE_TEXT_MAX_MESSAGE,
  messagePrice,
  MessagePriceUnavailableError,
  moneyToUnits,
  renderTemplate,
  unitsToMoney,
  type Contact,
  type PlanPricing,
  type SmsEncoding,
} from '@parley/shared';

/*
 * What the message editor shows under the text: the counts of the text as the first recipient will get it,
 * and the price per contact, both worked out with the same shared code the server charges with
 * (renderTemplate, countSegments, messagePrice), so the preview and the charge agree.
 */

export interface EstimateInput {
  template: string;
  /** The account's custom attribute names (the tokens besides the contact fields). */
  attributeNames: readonly string[];
  pricing: PlanPricing | null;
  /** The chosen contacts; none yet is allowed. */
  recipients: readonly Pick<Contact, 'firstName' | 'lastName' | 'mobile' | 'email' | 'attributes'>[];
  hasMedia: boolean;
}

export interface MessageEstimate {
  /** The text as the first recipient gets it (tokens without values render as nothing). */
  preview: string;
  encoding: SmsEncoding;
  segments: number;
  /** Units left in the current segment (GSM-7 septets or UCS-2 code units). */
  charactersLeft: number;
  /** Characters that force UCS-2, each once. */
  nonGsmCharacters: readonly string[];
  /** Tokens that name neither a contact field nor an attribute of the account. */
  unknownTokens: readonly string[];
  /** The lowest and highest price of one message among the recipients, and their sum; null without a priced recipient. */
  price: { min: string; max: string; total: string } | null;
  /** Countries of recipients the plan has no price for (MMS to GB, say). */
  unpriced: readonly string[];
}

const noContact = { firstName: '', lastName: '', mobile: { number: '', country: '' }, email: null, attributes: {} };

export function estimateMessage({ template, attributeNames, pricing, recipients, hasMedia }: EstimateInput): MessageEstimate {
  const counts = new Map<string, ReturnType<typeof countSegments>>();
  const countOf = (text: string) => {
    let count = counts.get(text);
    if (count === undefined) {
      count = countSegments(text);
      counts.set(text, count);
    }
    return count;
  };
  const first = recipients[0] ?? noContact;
  const rendered = renderTemplate(template, first, attributeNames);
  const count = countOf(rendered.text);

  let min: bigint | null = null;
  let max: bigint | null = null;
  let total = 0n;
  const unpriced = new Set<string>();
  if (pricing !== null) {
    for (const recipient of recipients) {
      const text = renderTemplate(template, recipient, attributeNames).text;
      if (text.trim() === '' && !hasMedia) continue;
      const segments = text === '' ? 0 : countOf(text).segments;
      try {
        const units = moneyToUnits(messagePrice(pricing, recipient.mobile.country, { segments, mms: hasMedia }));
        min = min === null || units < min ? units : min;
        max = max === null || units > max ? units : max;
        total += units;
      } catch (error) {
        if (!(error instanceof MessagePriceUnavailableError)) throw error;
        unpriced.add(error.country);
      }
    }
  }
  return {
    preview: count.replaced ?? rendered.text,
    encoding: count.encoding,
    segments: rendered.text === '' ? 0 : count.segments,
    charactersLeft: count.charactersLeft,
    nonGsmCharacters: count.nonGsmCharacters,
    unknownTokens: rendered.unknown,
    price: min === null || max === null ? null : { min: unitsToMoney(min), max: unitsToMoney(max), total: unitsToMoney(total) },
    unpriced: [...unpriced],
  };
}

/** '$0.0100', or '$0.0100 to $0.0400' when recipients pay different prices. */
export const formatPriceRange = (price: { min: string; max: string }): string =>
  price.min === price.max ? `$${price.min}` : `$${price.min} to $${price.max}`;

/**
 * What the editor says about the length limit, in the server's words (MESSAGE_TEXT_MAX_MESSAGE): at the limit,
 * and when a paste or a token would have gone past it (the editor keeps the first MESSAGE_TEXT_MAX characters),
 * how much was left out. `attempted` is the length the text would have had; null when nothing overflowed.
 */
export function lengthNotice(length: number, attempted: number | null): string | null {
  if (attempted !== null && attempted > MESSAGE_TEXT_MAX) {
    const cut = attempted - MESSAGE_TEXT_MAX;
    return `${MESSAGE_TEXT_MAX_MESSAGE}: ${cut.toLocaleString('en-US')} ${cut === 1 ? 'character was' : 'characters were'} left out`;
  }
  return length >= MESSAGE_TEXT_MAX ? MESSAGE_TEXT_MAX_MESSAGE : null;
}

/** The length the text would have after putting `inserted` over the selection [start, end). */
export const lengthAfterInsert = (value: string, inserted: string, start: number, end: number): number =>
  value.length - (end - start) + inserted.length;
