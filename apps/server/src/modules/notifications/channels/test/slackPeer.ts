import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizePage } from './slackPeerPages.js';

export interface SlackPost {
  channel: string;
  text: string;
  blocks: unknown;
  ts: string;
  token: string;
}

/**
 * A local Slack for tests: answers oauth.v2.access, auth.test, auth.revoke, conversations.list and chat.postMessage as
 * Slack's Web API documents them (form bodies in, `{ok, ...}` JSON out, `invalid_auth` for a wrong token),
 * records posts, and sends Events API requests signed as Slack signs them.
 */
export class SlackPeer {
  readonly posts: SlackPost[] = [];
  /** Whether the bot token was revoked (auth.revoke); a new install (oauth.v2.access) issues it again. */
  revoked = false;
  readonly token = `xoxb-${crypto.randomBytes(8).toString('hex')}`;
  readonly code = `code-${crypto.randomBytes(6).toString('hex')}`;
  readonly team = { id: 'T0PARLEY', name: 'Acme Support' };
  readonly botUserId = 'U0BOT';
  readonly channels = [
    { id: 'C0GENERAL', name: 'general' },
    { id: 'C0SUPPORT', name: 'support' },
  ];
  readonly signingSecret = crypto.randomBytes(16).toString('hex');
  readonly clientId = '1234.5678';
  readonly clientSecret = crypto.randomBytes(8).toString('hex');
  private server: http.Server | null = null;
  private tsCounter = 1_700_000_000;
  base = '';
  /** Where the app's Events API requests go (Parley's `/v1/notificationchannels/slack/events`). */
  eventsUrl: string | null = null;

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const url = new URL(request.url ?? '/', this.base);
        const answered = (status: number, type: string, text: string): void => {
          response.writeHead(status, { 'content-type': type });
          response.end(text);
        };
        if (url.pathname === '/oauth/v2/authorize') {
          const page = authorizePage(this, url.searchParams);
          answered(page.status, 'text/html; charset=utf-8', page.html);
          return;
        }
        if (url.pathname.startsWith('/peer/')) {
          this.control(url.pathname, body).then(
            (answer) => { answered(200, 'application/json', JSON.stringify(answer)); },
            (error: unknown) => { answered(500, 'text/plain', String(error)); },
          );
          return;
        }
        const answer = this.answer(request.url ?? '', request.headers.authorization, new URLSearchParams(body));
        answered(200, 'application/json; charset=utf-8', JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${String(port)}`;
  }

  /**
   * For a test in another process than the peer (the browser tests): `/peer/posts` answers the posts made so
   * far, `/peer/reply` ({channel, ts, text}) replies in a post's thread through the Events API.
   */
  private async control(path: string, body: string): Promise<unknown> {
    if (path === '/peer/posts') return { posts: this.posts };
    if (path === '/peer/reply') {
      const { channel, ts, text } = JSON.parse(body) as { channel: string; ts: string; text: string };
      return this.sendEvent(this.replyEvent({ channel, ts }, text));
    }
    throw new Error(`no such control: ${path}`);
  }

  /** Sends an Events API request to `eventsUrl`, signed as Slack signs it; answers Parley's status and body. */
  async sendEvent(envelope: Record<string, unknown>): Promise<{ status: number; body: string }> {
    if (this.eventsUrl === null) throw new Error('the peer has no events URL to send to');
    const body = JSON.stringify(envelope);
    const answer = await fetch(this.eventsUrl, { method: 'POST', headers: this.signedHeaders(body), body });
    return { status: answer.status, body: await answer.text() };
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }

  get apiUrl(): string {
    return `${this.base}/api/`;
  }

  /** The environment that points Parley at this peer. */
  env(): Record<string, string> {
    return {
      SLACK_CLIENT_ID: this.clientId,
      SLACK_CLIENT_SECRET: this.clientSecret,
      SLACK_SIGNING_SECRET: this.signingSecret,
      SLACK_API_URL: this.apiUrl,
      SLACK_OAUTH_URL: `${this.base}/oauth/v2/authorize`,
    };
  }

  private answer(url: string, authorization: string | undefined, form: URLSearchParams): Record<string, unknown> {
    const method = url.replace(/^\/api\//, '').split('?')[0] ?? '';
    const given = authorization?.replace(/^Bearer /, '') ?? form.get('token') ?? '';
    // A revoked token is Slack's invalid_auth everywhere, until the app is installed again.
    const bearer = this.revoked && given === this.token ? '' : given;
    switch (method) {
      case 'oauth.v2.access':
        if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) return { ok: false, error: 'invalid_client_id' };
        if (form.get('code') !== this.code) return { ok: false, error: 'invalid_code' };
        this.revoked = false;
        return { ok: true, access_token: this.token, token_type: 'bot', scope: 'chat:write,channels:read,groups:read,channels:history', bot_user_id: this.botUserId, app_id: 'A0PARLEY', team: this.team, enterprise: null, is_enterprise_install: false };
      case 'auth.test':
        return bearer === this.token ? { ok: true, url: 'https://acme.slack.com/', team: this.team.name, team_id: this.team.id, user_id: this.botUserId, bot_id: 'B0BOT' } : { ok: false, error: 'invalid_auth' };
      case 'auth.revoke':
        if (bearer !== this.token) return { ok: false, error: 'invalid_auth' };
        this.revoked = true;
        return { ok: true, revoked: true };
      case 'conversations.list':
        if (bearer !== this.token) return { ok: false, error: 'invalid_auth' };
        return { ok: true, channels: this.channels.map((c) => ({ ...c, is_channel: true, is_archived: false, is_member: true })), response_metadata: { next_cursor: '' } };
      case 'chat.postMessage': {
        if (bearer !== this.token) return { ok: false, error: 'invalid_auth' };
        const channel = form.get('channel') ?? '';
        if (!this.channels.some((c) => c.id === channel)) return { ok: false, error: 'channel_not_found' };
        this.tsCounter += 1;
        const ts = `${String(this.tsCounter)}.000100`;
        const blocks = form.get('blocks');
        this.posts.push({ channel, text: form.get('text') ?? '', blocks: blocks === null ? null : (JSON.parse(blocks) as unknown), ts, token: bearer });
        return { ok: true, channel, ts, message: { text: form.get('text'), ts, bot_id: 'B0BOT' } };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** A reply in a post's thread, as the Events API delivers it. */
  replyEvent(post: Pick<SlackPost, 'channel' | 'ts'>, text: string, options: { user?: string; botId?: string; eventId?: string } = {}): Record<string, unknown> {
    return {
      token: 'deprecated',
      team_id: this.team.id,
      api_app_id: 'A0PARLEY',
      type: 'event_callback',
      event_id: options.eventId ?? `Ev${crypto.randomBytes(5).toString('hex')}`,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'message',
        channel: post.channel,
        user: options.user ?? 'U0HUMAN',
        text,
        ts: String(Date.now() / 1000),
        thread_ts: post.ts,
        ...(options.botId === undefined ? {} : { bot_id: options.botId }),
      },
    };
  }

  /**
   * Headers Slack sends with a body: its signature over `v0:{timestamp}:{body}`, made here as Slack documents it
   * (not with Parley's own code, which it checks; and the browser tests load this peer without the server's).
   */
  signedHeaders(body: string, timestamp = Math.floor(Date.now() / 1000), retryNum?: number): Record<string, string> {
    return {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': `v0=${crypto.createHmac('sha256', this.signingSecret).update(`v0:${String(timestamp)}:${body}`).digest('hex')}`,
      ...(retryNum === undefined ? {} : { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': 'http_timeout' }),
    };
  }
}
