import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CRADLE_SIGNATURE_HEADER } from '@parley/shared';
import { cradleSignature } from '../cradleSignature.js';

/*
 * A local server answering as Parley assumes Cradle's API to be (docs/integrations.md, "Cradle"): the Bearer
 * API key (401 without it), GET /v1/account, webhooks registered with their URL and secret and deleted by id.
 * `event` writes a call event as Cradle is assumed to post it, signed with the webhook's secret.
 */

export interface PeerWebhook {
  id: string;
  url: string;
  secret: string;
  events: string[];
}
export interface PeerCall {
  id: string;
  direction: 'inbound' | 'outbound';
  status: 'answered' | 'missed' | 'voicemail' | 'busy' | 'failed';
  from: string;
  to: string;
  started_at: string;
  duration_seconds: number;
  recording_url: string | null;
  caller_name: string;
}

export interface CradlePeer {
  /** http://127.0.0.1:port: what CRADLE_API_BASE_URL is set to. */
  url: string;
  apiKey: string;
  webhooks: PeerWebhook[];
  requests: string[];
  /** A call event posted to `webhook`: its body and headers, signed with its secret (`secret` to forge one). */
  event(webhook: PeerWebhook, call: PeerCall, secret?: string): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body?: unknown): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json' });
  return res.end(body === undefined ? '' : JSON.stringify(body));
}

async function bodyOf(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** `port`: 0 (the default) for a free one; a browser test's peer listens where the shared server was told it is. */
export async function startCradlePeer(options: { port?: number } = {}): Promise<CradlePeer> {
  const state = { apiKey: `cr-${crypto.randomBytes(12).toString('hex')}`, webhooks: [] as PeerWebhook[], requests: [] as string[] };

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const url = new URL(req.url ?? '/', 'http://peer');
    const method = req.method ?? 'GET';
    state.requests.push(`${method} ${url.pathname}`);
    if (req.headers.authorization !== `Bearer ${state.apiKey}`) return send(res, 401, { error: 'invalid_api_key' });
    if (method === 'GET' && url.pathname === '/v1/account') return send(res, 200, { id: 'acc_5150', name: 'Harbour Law' });
    if (method === 'POST' && url.pathname === '/v1/webhooks') {
      const body = await bodyOf(req);
      const webhook: PeerWebhook = { id: `wh_${crypto.randomBytes(6).toString('hex')}`, url: String(body.url), secret: String(body.secret), events: body.events as string[] };
      state.webhooks.push(webhook);
      return send(res, 201, { id: webhook.id, url: webhook.url, events: webhook.events });
    }
    const hook = state.webhooks.findIndex((w) => `/v1/webhooks/${w.id}` === url.pathname);
    if (method === 'DELETE' && hook !== -1) {
      state.webhooks.splice(hook, 1);
      return send(res, 204);
    }
    return send(res, 404, { error: 'not_found' });
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch(() => send(res, 500, { error: 'peer failed' }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${String(port)}`,
    event(webhook: PeerWebhook, call: PeerCall, secret = webhook.secret) {
      const body = JSON.stringify({ event: 'call.completed', call });
      return { body, headers: { 'content-type': 'application/json', [CRADLE_SIGNATURE_HEADER]: cradleSignature(secret, Buffer.from(body)) } };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  });
}
