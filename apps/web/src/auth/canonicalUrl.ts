/**
 * The same page on the deployment's own address (PUBLIC_URL), when the browser came by another one
 * (127.0.0.1 for localhost, a bare IP for a host name): sign-in only returns to the registered
 * address, so the app moves there first. Null when the browser is already there.
 */
export function canonicalUrl(
  publicUrl: string,
  current: { origin: string; pathname: string; search: string; hash: string },
): string | null {
  let target: URL;
  try {
    target = new URL(publicUrl);
  } catch {
    return null;
  }
  if (target.origin === current.origin) return null;
  return `${target.origin}${current.pathname}${current.search}${current.hash}`;
}
