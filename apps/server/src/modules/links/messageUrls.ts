import { LINK_URL_MAX, SHORT_CODE_LENGTH } from '@parley/shared';

/** An http(s) URL in a message's text: up to white space, a quote, an angle bracket or a token's brace. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"'{}]+/gi;
/** Punctuation that ends a sentence rather than the URL ("see https://a.example/x." or "(https://a.example)"). */
const TRAILING = /[.,;:!?)\]]+$/;
const CODE_PATH = new RegExp(`^/[0-9A-Za-z]{${String(SHORT_CODE_LENGTH)}}$`);

/** A URL found in a text: where it starts and its text. */
export interface UrlInText {
  start: number;
  url: string;
}

/**
 * The URLs of a text worth shortening. Left alone: a URL running into a token (`https://a.example/?m={{{mobile}}}`
 * differs per recipient, so no one link can stand for it), one too long for a link, and one that is not a
 * valid URL.
 */
export function urlsInText(text: string): UrlInText[] {
  const found: UrlInText[] = [];
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(TRAILING, '');
    const end = match.index + match[0].length;
    if (text.charAt(end) === '{' || url.length > LINK_URL_MAX || !isHttpUrl(url)) continue;
    found.push({ start: match.index, url });
  }
  return found;
}

function isHttpUrl(text: string): boolean {
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}

/** Where short URLs live: a host and the path their code follows ('/' or '/r/'). */
export interface ShortBase {
  host: string;
  path: string;
}

/** The host and path of a base such as `https://hub.example/r` or `https://go.shop.example`. */
export function shortBaseOf(base: string): ShortBase {
  const url = new URL(base);
  return { host: url.host.toLowerCase(), path: url.pathname.replace(/\/?$/, '/') };
}

/** Whether a URL is already a short link of one of these bases: the base, then one code and nothing else. */
export function isShortUrl(url: string, bases: readonly ShortBase[]): boolean {
  const parsed = new URL(url);
  if (parsed.search !== '' || parsed.hash !== '') return false;
  const host = parsed.host.toLowerCase();
  return bases.some((b) => b.host === host && parsed.pathname.startsWith(b.path) && CODE_PATH.test(parsed.pathname.slice(b.path.length - 1)));
}

/** A link's name: the destination's host and path (no scheme, query or fragment), cut to `max` with an ellipsis. */
export function linkNameOf(url: string, max: number): string {
  const parsed = new URL(url);
  const path = parsed.pathname === '/' ? '' : parsed.pathname;
  const name = `${parsed.host}${path}`;
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

/** The text with each URL found replaced by its short URL (urls: the found URL -> its short URL). */
export function replaceUrls(text: string, found: readonly UrlInText[], short: ReadonlyMap<string, string>): string {
  let out = '';
  let at = 0;
  for (const { start, url } of found) {
    const replacement = short.get(url);
    if (replacement === undefined) continue;
    out += text.slice(at, start) + replacement;
    at = start + url.length;
  }
  return out + text.slice(at);
}
