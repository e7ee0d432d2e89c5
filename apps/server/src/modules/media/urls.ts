/** Addresses of stored media (docs/media.md). */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const accountMediaPath = new RegExp(`^/v1/accounts/(${UUID})/media/(${UUID})$`);
const accountMediaPathEnd = new RegExp(`/v1/accounts/(${UUID})/media/(${UUID})/?$`);

/** The account media URL a message's media holds: served to the account's users and clients with their token. */
export const accountMediaUrl = (publicUrl: string, accountId: string, fileId: string): string =>
  `${publicUrl}/v1/accounts/${accountId}/media/${fileId}`;

/** The public path a carrier fetches with a signature. */
export const signedMediaPath = (fileId: string): string => `/v1/media/${fileId}`;

/** The account and file of one of this deployment's account media URLs; null for any other address. */
export function parseAccountMediaUrl(publicUrl: string, url: string): { accountId: string; fileId: string } | null {
  if (!url.startsWith(`${publicUrl}/`)) return null;
  let path: string;
  try {
    const parsed = new URL(url);
    if (parsed.search !== '' || parsed.hash !== '') return null;
    path = parsed.pathname;
  } catch {
    return null;
  }
  // PUBLIC_URL may carry a path prefix (behind a proxy); what follows it is ours.
  const prefix = new URL(publicUrl).pathname.replace(/\/+$/, '');
  if (!path.startsWith(`${prefix}/`)) return null;
  const match = accountMediaPath.exec(path.slice(prefix.length));
  if (!match?.[1] || !match[2]) return null;
  return { accountId: match[1].toLowerCase(), fileId: match[2].toLowerCase() };
}

/**
 * The account and file a URL names if it has the shape of an account media URL under any host and path
 * prefix, its query ignored: what a send's media is checked by (modules/media/mediaOwnership.ts). Looser than
 * parseAccountMediaUrl on purpose: PUBLIC_URL may have changed since the URL was handed out, and a proxy may
 * reach this deployment under other names, so "one of ours" is judged by the path, never by the host.
 */
export function accountMediaReference(url: string): { accountId: string; fileId: string } | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: the path as written.
  }
  const match = accountMediaPathEnd.exec(decoded);
  if (!match?.[1] || !match[2]) return null;
  return { accountId: match[1].toLowerCase(), fileId: match[2].toLowerCase() };
}
