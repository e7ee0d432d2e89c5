/*
 * The one rule for redirect targets that come from outside: a query parameter (`redirectTo`), state kept
 * in the browser (the page to return to after sign-in), a push notification's page. Used by the server
 * and the web app alike, so no place checks differently.
 */

/** Longer targets are refused: no page of the app needs one, and they only end up in logs and URLs. */
export const REDIRECT_TARGET_MAX_LENGTH = 2000;

/**
 * Whitespace and control characters: the URL parser drops tabs and newlines silently (`/\t/evil.example`
 * becomes `//evil.example`), so a target that holds any is refused rather than read as the parser reads it.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f]/;

/** Two slashes, or a slash and a backslash (which browsers read as a slash): another host follows. */
const AUTHORITY_START = /^[/\\]{2}/;

/**
 * The path on `origin` that a redirect target names, as `/path?query#hash`, or null when it leads
 * anywhere else: another origin or scheme (`https://evil.example`, `//evil.example`, `/\evil.example`,
 * `javascript:`), a path that starts with two slashes once resolved (`/.//evil.example/x`,
 * `https://parley.example//evil.example/x`: read again, that is a protocol-relative URL), whitespace or
 * control characters, or more than 2,000 characters. A relative target is resolved against the origin.
 *
 * The answer starts with exactly one slash followed by something other than a slash or backslash, so
 * wherever it is used (a Location header, `window.location`, the router, `new URL(path, origin)`) it
 * stays on the origin. Pass it on as it is; a check on the input that then hands on the input would be
 * the bug this function exists to prevent.
 */
export function sameOriginPath(target: unknown, origin: string): string | null {
  if (typeof target !== 'string' || target === '' || target.length > REDIRECT_TARGET_MAX_LENGTH) return null;
  if (UNSAFE_CHARACTERS.test(target)) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(target, base);
  } catch {
    return null;
  }
  if (base.origin === 'null' || url.origin !== base.origin) return null;
  if (!url.pathname.startsWith('/') || AUTHORITY_START.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Any origin stands for "this one" where only the path matters; this host can never be anyone's. */
const PLACEHOLDER_ORIGIN = 'https://parley.invalid';

/**
 * A path of this site, when the origin is not at hand (a stored link, a push's page): the target must
 * be a path (`/...`, never a URL or `//host`), and the answer is as `sameOriginPath` gives it.
 */
export function localPath(target: unknown): string | null {
  if (typeof target !== 'string' || !target.startsWith('/') || AUTHORITY_START.test(target)) return null;
  return sameOriginPath(target, PLACEHOLDER_ORIGIN);
}
