import { WebClient, type FetchFunction, type KnownBlock } from '@slack/web-api';
import type { SlackConfig } from '../../../platform/config.js';
import { createGuardedFetch, type GuardedFetch } from '../../../platform/net/guardedFetch.js';

/** What Parley asks of a workspace (docs/notifications.md, "Slack"). */
export const SLACK_SCOPES = ['chat:write', 'channels:read', 'groups:read', 'channels:history'] as const;

/** Slack's WebClient speaking through the guarded fetcher (platform/net/guardedFetch.ts), with its deadline and size bound. */
function slackFetch(guarded: GuardedFetch): FetchFunction {
  return async (url, init) => {
    if (init?.body !== undefined && typeof init.body !== 'string') throw new Error('Slack calls carry form bodies only');
    const answer = await guarded(String(url), {
      method: init?.method ?? 'GET',
      headers: init?.headers ?? {},
      ...(init?.body === undefined ? {} : { body: init.body }),
      timeoutMs: 10_000,
      maxBytes: 2 * 1024 * 1024,
      maxRedirects: 0,
      ...(init?.signal === undefined ? {} : { signal: init.signal }),
    });
    const text = answer.body.toString('utf8');
    const response: Awaited<ReturnType<FetchFunction>> = {
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      statusText: '',
      url: answer.url,
      headers: answer.headers,
      arrayBuffer: () => Promise.resolve(answer.body.buffer.slice(answer.body.byteOffset, answer.body.byteOffset + answer.body.byteLength) as ArrayBuffer),
      json: () => Promise.resolve(JSON.parse(text) as unknown),
      text: () => Promise.resolve(text),
    };
    return response;
  };
}

/** Slack's answers for a token that no longer works: revoking it again has nothing to do. */
const GONE_TOKEN_ERRORS = new Set(['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed', 'token_expired']);

/** The `error` of Slack's `{ ok: false }` answer, as the official client throws it; null for other failures. */
function slackErrorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  const code = (data as { error?: unknown }).error;
  return typeof code === 'string' ? code : null;
}

export interface SlackInstall {
  teamId: string;
  teamName: string;
  botUserId: string;
  token: string;
}

export interface SlackChannelInfo {
  id: string;
  name: string;
}

/** Slack's Web API as Parley uses it: the official client pointed at SLACK_API_URL. */
export class SlackApi {
  private readonly fetch: FetchFunction;

  constructor(
    private readonly config: SlackConfig,
    allowedHosts: readonly string[],
  ) {
    this.fetch = slackFetch(createGuardedFetch({ allowedHosts }));
  }

  private client(token?: string): WebClient {
    // No retries inside a request: the channel sender retries on its own schedule.
    return new WebClient(token, { slackApiUrl: this.config.apiUrl, fetch: this.fetch, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
  }

  /** Trades an OAuth code for the bot's token (oauth.v2.access). */
  async exchangeCode(code: string, redirectUri: string): Promise<SlackInstall> {
    const answer = await this.client().oauth.v2.access({ client_id: this.config.clientId, client_secret: this.config.clientSecret, code, redirect_uri: redirectUri });
    const token = answer.access_token;
    const team = answer.team;
    if (token === undefined || team?.id === undefined || answer.bot_user_id === undefined) throw new Error('Slack answered oauth.v2.access without a bot token');
    return { teamId: team.id, teamName: team.name ?? team.id, botUserId: answer.bot_user_id, token };
  }

  /** The workspace's channels the bot can post to, by name. */
  async channels(token: string): Promise<SlackChannelInfo[]> {
    const found: SlackChannelInfo[] = [];
    let cursor: string | undefined;
    // A few pages at most: a workspace with more than 2,000 channels names the one it wants by id.
    for (let page = 0; page < 10; page += 1) {
      const answer = await this.client(token).conversations.list({ types: 'public_channel,private_channel', exclude_archived: true, limit: 200, ...(cursor === undefined ? {} : { cursor }) });
      for (const c of answer.channels ?? []) if (c.id !== undefined) found.push({ id: c.id, name: c.name ?? c.id });
      cursor = answer.response_metadata?.next_cursor;
      if (cursor === undefined || cursor === '') break;
    }
    return found.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Revokes the bot token (auth.revoke): the workspace's install of Parley ends. A token Slack no longer
   * honours is already revoked.
   */
  async revoke(token: string): Promise<void> {
    try {
      await this.client(token).auth.revoke();
    } catch (error) {
      if (slackErrorCode(error) !== null && GONE_TOKEN_ERRORS.has(slackErrorCode(error) ?? '')) return;
      throw error;
    }
  }

  /** Posts a message; its ts is the thread replies come back in. */
  async post(token: string, channel: string, text: string, blocks: KnownBlock[]): Promise<{ ts: string; channel: string }> {
    const answer = await this.client(token).chat.postMessage({ channel, text, blocks, unfurl_links: false });
    if (answer.ts === undefined) throw new Error('Slack answered chat.postMessage without a ts');
    return { ts: answer.ts, channel: answer.channel ?? channel };
  }
}
