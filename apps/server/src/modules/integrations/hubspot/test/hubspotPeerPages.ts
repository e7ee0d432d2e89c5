import type { HubSpotPeerState } from './hubspotPeerState.js';

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

const page = (title: string, content: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family: sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">${content}</body></html>`;

/**
 * HubSpot's install page, as the peer shows it: the portal and the scopes asked for, and "Connect app", a
 * link back to the redirect_uri with a new single-use code and the app's state (where HubSpot sends the
 * browser once the user approves; HubSpot sends nothing when the user does not). An unknown client id or a
 * missing redirect_uri is an error page.
 */
export function authorizePage(peer: HubSpotPeerState, query: URLSearchParams): { status: number; html: string } {
  const redirectUri = query.get('redirect_uri');
  if (query.get('client_id') !== peer.clientId || redirectUri === null || !/^https?:\/\//.test(redirectUri)) {
    return { status: 400, html: page('HubSpot', '<h1>Authorization failed</h1><p>The client_id or redirect_uri is not valid.</p>') };
  }
  const back = new URL(redirectUri);
  back.searchParams.set('code', peer.issueCode(redirectUri));
  const state = query.get('state');
  if (state !== null) back.searchParams.set('state', state);
  const scopes = [...(query.get('scope') ?? '').split(' '), ...(query.get('optional_scope') ?? '').split(' ')].filter((s) => s !== '');
  return {
    status: 200,
    html: page(
      'HubSpot',
      `<h1>Connect Parley to ${escapeHtml(peer.hubDomain)} (${String(peer.hubId)})</h1>` +
        `<ul>${scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` +
        `<p><a href="${escapeHtml(back.toString())}">Connect app</a></p>`,
    ),
  };
}
