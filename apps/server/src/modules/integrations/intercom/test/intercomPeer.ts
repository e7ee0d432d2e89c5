import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PeerApp } from '../../test/peerApp.js';

/*
 * A local server answering as Intercom documents its OAuth and REST API: /oauth hands back a single-use code at
 * once (as if the admin approved), /auth/eagle/token trades it for a token given the client id and secret;
 * the API takes the Bearer token and an Intercom-Version header, answers GET /me, searches contacts by phone,
 * creates contacts and conversations, takes a contact's replies and an admin's close. `notification` builds
 * webhook notifications signed as Intercom signs them (X-Hub-Signature, HMAC-SHA1 with the client secret).
 */

export interface PeerContact {
  id: string;
  role: string;
  phone: string;
  name: string;
}

export interface PeerPart {
  id: string;
  part_type: 'comment' | 'close' | 'note';
  body: string;
  author: { type: 'user' | 'admin'; id: string };
}

export interface PeerConversation {
  id: string;
  contactId: string;
  state: 'open' | 'closed';
  parts: PeerPart[];
}

export interface IntercomPeer {
  /** http://127.0.0.1:port: INTERCOM_API_BASE_URL and INTERCOM_OAUTH_BASE_URL. */
  url: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  admin: { id: string; name: string };
  app: { id_code: string; name: string };
  contacts: PeerContact[];
  conversations: PeerConversation[];
  /** Every request, as `METHOD path`. */
  requests: string[];
  /** A webhook notification of a topic about a conversation, its body and X-Hub-Signature (`secret` to forge one). */
  notification(topic: string, conversationId: string, parts?: PeerPart[], secret?: string): { body: string; signature: string };
  /** An agent's reply in the conversation, kept, and its admin.replied notification. */
  agentReply(conversationId: string, html: string, secret?: string): { body: string; signature: string };
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown): http.ServerResponse {
  res.writeHead(status, { 'content-type': 'application/json' });
  return res.end(JSON.stringify(body));
}

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const newId = (): string => String(crypto.randomInt(10_000_000, 99_999_999));
const error = (code: string, message: string) => ({ type: 'error.list', errors: [{ code, message }] });

type State = Omit<IntercomPeer, 'url' | 'close' | 'notification' | 'agentReply'>;

function conversationJson(c: PeerConversation) {
  return { type: 'conversation', id: c.id, state: c.state, open: c.state === 'open', conversation_parts: { type: 'conversation_part.list', conversation_parts: c.parts, total_count: c.parts.length } };
}

async function api(state: State, req: http.IncomingMessage, url: URL, res: http.ServerResponse): Promise<http.ServerResponse> {
  const route = `${req.method ?? 'GET'} ${url.pathname.replace(/^\/conversations\/[^/]+/, '/conversations/:id')}`;
  const conversation = state.conversations.find((c) => c.id === /^\/conversations\/([^/]+)/.exec(url.pathname)?.[1]);
  const body = req.method === 'POST' ? (JSON.parse((await bodyOf(req)) || '{}') as Record<string, unknown>) : {};
  switch (route) {
    case 'GET /me':
      return send(res, 200, { type: 'admin', id: state.admin.id, name: state.admin.name, email: 'agent@acme.example', app: { type: 'app', ...state.app } });
    case 'POST /contacts/search': {
      const query = body.query as { field?: string; operator?: string; value?: string } | undefined;
      const found = query?.field === 'phone' && query.operator === '=' ? state.contacts.filter((c) => c.phone === query.value) : [];
      return send(res, 200, { type: 'list', data: found.map((c) => ({ type: 'contact', ...c })), total_count: found.length, pages: { type: 'pages', page: 1, per_page: 50, total_pages: 1 } });
    }
    case 'POST /contacts': {
      if (typeof body.role !== 'string' || !['user', 'lead'].includes(body.role)) return send(res, 400, error('parameter_invalid', 'role must be user or lead'));
      const contact: PeerContact = { id: crypto.randomBytes(12).toString('hex'), role: body.role, phone: typeof body.phone === 'string' ? body.phone : '', name: typeof body.name === 'string' ? body.name : '' };
      state.contacts.push(contact);
      return send(res, 200, { type: 'contact', ...contact });
    }
    case 'POST /conversations': {
      const from = body.from as { type?: string; id?: string } | undefined;
      if (!state.contacts.some((c) => c.id === from?.id) || !['user', 'lead', 'contact'].includes(from?.type ?? '')) return send(res, 404, error('not_found', 'User Not Found'));
      const created: PeerConversation = { id: newId(), contactId: from?.id ?? '', state: 'open', parts: [{ id: newId(), part_type: 'comment', body: String(body.body), author: { type: 'user', id: from?.id ?? '' } }] };
      state.conversations.push(created);
      return send(res, 200, { type: 'user_message', id: newId(), created_at: Math.floor(Date.now() / 1000), body: body.body, message_type: 'inapp', conversation_id: created.id });
    }
    case 'POST /conversations/:id/reply': {
      if (conversation === undefined) return send(res, 404, error('not_found', 'Resource Not Found'));
      if (body.message_type === 'note' && body.type === 'admin' && body.admin_id === state.admin.id) {
        conversation.parts.push({ id: newId(), part_type: 'note', body: String(body.body), author: { type: 'admin', id: state.admin.id } });
        return send(res, 200, conversationJson(conversation));
      }
      if (body.message_type !== 'comment' || body.type !== 'user' || body.intercom_user_id !== conversation.contactId) return send(res, 400, error('parameter_invalid', 'Not the conversation’s contact'));
      conversation.parts.push({ id: newId(), part_type: 'comment', body: String(body.body), author: { type: 'user', id: conversation.contactId } });
      conversation.state = 'open';
      return send(res, 200, conversationJson(conversation));
    }
    case 'POST /conversations/:id/parts': {
      if (conversation === undefined) return send(res, 404, error('not_found', 'Resource Not Found'));
      if (body.message_type !== 'close' || body.type !== 'admin' || body.admin_id !== state.admin.id) return send(res, 400, error('parameter_invalid', 'Close needs the admin'));
      conversation.state = 'closed';
      conversation.parts.push({ id: newId(), part_type: 'close', body: '', author: { type: 'admin', id: state.admin.id } });
      return send(res, 200, conversationJson(conversation));
    }
    default:
      return send(res, 404, error('not_found', 'Resource Not Found'));
  }
}

function oauth(state: State, codes: Set<string>) {
  return {
    authorize(url: URL, res: http.ServerResponse): http.ServerResponse {
      if (url.searchParams.get('client_id') !== state.clientId) return send(res, 400, error('invalid_client', 'Unknown app'));
      const code = crypto.randomBytes(12).toString('hex');
      codes.add(code);
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      return res.end();
    },
    async token(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
      const form = new URLSearchParams(await bodyOf(req));
      if (form.get('client_id') !== state.clientId || form.get('client_secret') !== state.clientSecret) return send(res, 401, error('unauthorized', 'Bad client'));
      if (!codes.delete(form.get('code') ?? '')) return send(res, 400, error('invalid_grant', 'Unknown code'));
      state.accessToken = crypto.randomBytes(16).toString('hex');
      return send(res, 200, { token_type: 'Bearer', token: state.accessToken, access_token: state.accessToken });
    },
  };
}

/** Listens on `options.port` (a free one by default) and knows `options`' app (its own by default): test/peerApp.ts. */
export async function startIntercomPeer(options: PeerApp = {}): Promise<IntercomPeer> {
  const state: State = {
    clientId: options.clientId ?? 'ic-client',
    clientSecret: options.clientSecret ?? 'ic-secret',
    accessToken: crypto.randomBytes(16).toString('hex'),
    admin: { id: '991', name: 'Alex Agent' },
    app: { id_code: 'acmeapp1', name: 'Acme Support' },
    contacts: [],
    conversations: [],
    requests: [],
  };
  const flow = oauth(state, new Set());

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<http.ServerResponse> {
    const url = new URL(req.url ?? '/', 'http://peer');
    state.requests.push(`${req.method ?? 'GET'} ${url.pathname}`);
    if (url.pathname === '/oauth') return flow.authorize(url, res);
    if (url.pathname === '/auth/eagle/token') return flow.token(req, res);
    if (req.headers.authorization !== `Bearer ${state.accessToken}`) return send(res, 401, error('unauthorized', 'Access Token Invalid'));
    if (typeof req.headers['intercom-version'] !== 'string') return send(res, 400, error('intercom_version_invalid', 'Intercom-Version is required'));
    return api(state, req, url, res);
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch(() => send(res, 500, error('server_error', 'peer failure')));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const notification = (topic: string, conversationId: string, parts: PeerPart[] = [], secret = state.clientSecret): { body: string; signature: string } => {
    const body = JSON.stringify({
      type: 'notification_event',
      app_id: state.app.id_code,
      id: `notif_${crypto.randomUUID()}`,
      topic,
      delivery_attempts: 1,
      created_at: Math.floor(Date.now() / 1000),
      data: { type: 'notification_event_data', item: { type: 'conversation', id: conversationId, conversation_parts: { type: 'conversation_part.list', conversation_parts: parts, total_count: parts.length } } },
    });
    return { body, signature: `sha1=${crypto.createHmac('sha1', secret).update(body).digest('hex')}` };
  };

  return Object.assign(state, {
    url: `http://127.0.0.1:${String(port)}`,
    notification,
    agentReply(conversationId: string, html: string, secret?: string) {
      const part: PeerPart = { id: newId(), part_type: 'comment', body: html, author: { type: 'admin', id: state.admin.id } };
      state.conversations.find((c) => c.id === conversationId)?.parts.push(part);
      return notification('conversation.admin.replied', conversationId, [part], secret);
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
