import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { slackSignature } from '../slackSigning.js';

export interface SlackPost {
  channel: string;
  text: string;
  blocks: unknown;
  ts: string;
  token: string;
}

/**
 * A local Slack for tests: answers oauth.v2.access, auth.test, conversations.list and chat.postMessage as
 * Slack's Web API documents them (form bodies in, `{ok, ...}` JSON out, `invalid_auth` for a wrong token),
 * records posts, and sends Events API requests signed as Slack signs them.
 */
export class SlackPeer {
  readonly posts: SlackPost[] = [];
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

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const answer = this.answer(request.url ?? '', request.headers.authorization, new URLSearchParams(body));
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `http://127.0.0.1:${String(port)}`;
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
    const bearer = authorization?.replace(/^Bearer /, '') ?? form.get('token') ?? '';
    switch (method) {
      case 'oauth.v2.access':
        if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) return { ok: false, error: 'invalid_client_id' };
        if (form.get('code') !== this.code) return { ok: false, error: 'invalid_code' };
        return { ok: true, access_token: this.token, token_type: 'bot', scope: 'chat:write,channels:read,groups:read,channels:history', bot_user_id: this.botUserId, app_id: 'A0PARLEY', team: this.team, enterprise: null, is_enterprise_install: false };
      case 'auth.test':
        return bearer === this.token ? { ok: true, url: 'https://acme.slack.com/', team: this.team.name, team_id: this.team.id, user_id: this.botUserId, bot_id: 'B0BOT' } : { ok: false, error: 'invalid_auth' };
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

  /** Headers Slack sends with a body: its signature over `v0:{timestamp}:{body}`. */
  signedHeaders(body: string, timestamp = Math.floor(Date.now() / 1000), retryNum?: number): Record<string, string> {
    return {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(this.signingSecret, String(timestamp), body),
      ...(retryNum === undefined ? {} : { 'x-slack-retry-num': String(retryNum), 'x-slack-retry-reason': 'http_timeout' }),
    };
  }
}
