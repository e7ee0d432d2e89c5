/** What the consent page needs of the peer. */
export interface SlackApp {
  clientId: string;
  code: string;
  team: { name: string };
}

const escapeHtml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

const page = (title: string, content: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family: sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">${content}</body></html>`;

/**
 * Slack's OAuth v2 consent page, as the peer shows it: the workspace and the scopes asked for, and "Allow",
 * a link back to the app's redirect_uri with a code and the app's state (what Slack sends the browser to
 * once the user allows). An unknown client id or no redirect_uri is an error page, as on Slack.
 */
export function authorizePage(peer: SlackApp, query: URLSearchParams): { status: number; html: string } {
  const redirectUri = query.get('redirect_uri');
  if (query.get('client_id') !== peer.clientId || redirectUri === null || !/^https?:\/\//.test(redirectUri)) {
    return { status: 400, html: page('Slack', '<h1>Something went wrong</h1><p>invalid_client_id or redirect_uri</p>') };
  }
  const back = new URL(redirectUri);
  back.searchParams.set('code', peer.code);
  back.searchParams.set('state', query.get('state') ?? '');
  const denied = new URL(redirectUri);
  denied.searchParams.set('error', 'access_denied');
  denied.searchParams.set('state', query.get('state') ?? '');
  const scopes = (query.get('scope') ?? '').split(',').filter((s) => s !== '');
  return {
    status: 200,
    html: page(
      'Slack',
      `<h1>Parley is requesting permission to access the ${escapeHtml(peer.team.name)} Slack workspace</h1>` +
        `<ul>${scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` +
        `<p><a href="${escapeHtml(denied.toString())}">Cancel</a> <a href="${escapeHtml(back.toString())}">Allow</a></p>`,
    ),
  };
}
