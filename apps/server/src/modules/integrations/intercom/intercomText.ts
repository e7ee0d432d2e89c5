import { htmlToText } from '../email/emailText.js';

/*
 * An Intercom body (HTML) as the text of an SMS (docs/integrations.md, "Intercom"): a link keeps its address,
 * tags go, entities are decoded, runs of blank lines fold into one.
 */

const decodeNumeric = (text: string): string =>
  text.replace(/&#(x[0-9a-f]+|\d+);/gi, (whole, code: string) => {
    const point = code.startsWith('x') || code.startsWith('X') ? Number.parseInt(code.slice(1), 16) : Number(code);
    return Number.isInteger(point) && point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : whole;
  });

/** `<a href="u">t</a>` as `t (u)`, or `u` when the text is the address. */
const linksAsText = (html: string): string =>
  html.replace(/<a\s[^>]*href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_whole, href: string, inner: string) => {
    const label = inner.replace(/<[^>]+>/g, '').trim();
    return label === '' || label === href ? href : `${label} (${href})`;
  });

export function intercomBodyText(html: string): string {
  return decodeNumeric(htmlToText(linksAsText(html)))
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
