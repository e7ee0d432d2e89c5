import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGuardedFetch, type GuardedFetch } from '../../../../platform/net/guardedFetch.js';
import { answerCrm, type PeerAnswer } from './hubspotPeerCrm.js';
import { answerOAuth } from './hubspotPeerOAuth.js';
import { authorizePage } from './hubspotPeerPages.js';
import type { PeerApp } from '../../test/peerApp.js';
import { HubSpotPeerState } from './hubspotPeerState.js';

/** The guarded fetcher as the framework makes it, with the peer's loopback address allowed (as the operator's API host is). */
export const peerFetch: GuardedFetch = createGuardedFetch({ allowedHosts: ['127.0.0.1'] });

export type { PeerCommunication, PeerContact, PeerList } from './hubspotPeerState.js';

/**
 * A local HubSpot for tests: answers the dated OAuth endpoints (token, introspect, revoke; v1 is a 404) and the CRM
 * v3 calls the adapter makes (contacts paged by `after`, contact create, lists search and memberships,
 * communications create) as HubSpot documents them, with its error bodies (401 for a bad or expired token,
 * 429 with Retry-After when switched on), keeps what was written in memory, and signs requests as HubSpot
 * signs a workflow action's call.
 */
export class HubSpotPeer extends HubSpotPeerState {
  private server: http.Server | null = null;
  base = '';
  /** Answer the next API call with a 429 and this Retry-After (seconds); null: no limit. */
  private rateLimitNext: number | null = null;
  /** The User-Agent of every request, in order. */
  readonly userAgents: string[] = [];
  private readonly port: number;

  /** Listens on `app.port` (a free one by default) and knows `app`'s credentials (new ones by default). */
  constructor(app: PeerApp = {}) {
    super(app);
    this.port = app.port ?? 0;
  }

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.userAgents.push(request.headers['user-agent'] ?? '');
        const url = new URL(request.url ?? '/', this.base);
        const body = Buffer.concat(chunks).toString('utf8');
        if (url.pathname === '/oauth/authorize') {
          const shown = authorizePage(this, url.searchParams);
          response.writeHead(shown.status, { 'content-type': 'text/html; charset=utf-8' });
          response.end(shown.html);
          return;
        }
        if (url.pathname.startsWith('/peer/')) {
          this.control(url.pathname, body).then(
            (answer) => {
              response.writeHead(200, { 'content-type': 'application/json' });
              response.end(JSON.stringify(answer));
            },
            (error: unknown) => {
              response.writeHead(500, { 'content-type': 'text/plain' });
              response.end(String(error));
            },
          );
          return;
        }
        const answer = this.answer(request.method ?? 'GET', url, request.headers, body);
        response.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json;charset=utf-8' }), ...answer.headers });
        response.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
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

  /**
   * For a test in another process (the browser tests): `/peer/records` answers the contacts, lists and
   * communications held; `/peer/contacts` ({properties}[]) and `/peer/lists` ({name, members}) add records;
   * `/peer/ratelimit` ({retryAfterSeconds}) limits the next call; `/peer/action` ({url, contactId,
   * inputFields}) runs the workflow action against `url`, signed.
   */
  private async control(path: string, body: string): Promise<unknown> {
    const input = (body === '' ? {} : JSON.parse(body)) as Record<string, unknown>;
    switch (path) {
      case '/peer/records':
        return { contacts: this.contacts, lists: this.lists, communications: this.communications };
      case '/peer/contacts':
        return (input.contacts as { properties: Record<string, string | null> }[]).map((c) => this.addContact(c.properties));
      case '/peer/lists':
        return this.addList(String(input.name), input.members as string[]);
      case '/peer/ratelimit':
        this.rateLimitOnce(Number(input.retryAfterSeconds));
        return {};
      case '/peer/action':
        return this.sendWorkflowAction(String(input.url), String(input.contactId), input.inputFields as Record<string, string>);
      default:
        throw new Error(`no such control: ${path}`);
    }
  }

  /** Runs the workflow action for a contact: POSTs HubSpot's request to `url`, signed; answers Parley's status and body. */
  async sendWorkflowAction(url: string, contactId: string, inputFields: Record<string, string | number | null>): Promise<{ status: number; body: string }> {
    const body = JSON.stringify(this.workflowActionBody(contactId, inputFields));
    const answer = await fetch(url, { method: 'POST', headers: this.signedHeaders('POST', url, body), body });
    return { status: answer.status, body: await answer.text() };
  }

  /** The next API call answers 429 with this Retry-After, once. */
  rateLimitOnce(retryAfterSeconds: number): void {
    this.rateLimitNext = retryAfterSeconds;
  }

  /** The app as the adapter is configured with it. */
  app(redirectUri = 'https://parley.example/v1/integrations/hubspot/oauth/callback'): { clientId: string; clientSecret: string; redirectUri: string; authorizeUrl: string; apiBaseUrl: string } {
    return { clientId: this.clientId, clientSecret: this.clientSecret, redirectUri, authorizeUrl: `${this.base}/oauth/authorize`, apiBaseUrl: this.base };
  }

  private answer(method: string, url: URL, headers: http.IncomingHttpHeaders, body: string): PeerAnswer {
    if (url.pathname.startsWith('/oauth/')) return answerOAuth(this, method, url, body);
    if (this.rateLimitNext !== null) {
      const seconds = this.rateLimitNext;
      this.rateLimitNext = null;
      return {
        status: 429,
        headers: { 'retry-after': String(seconds) },
        body: { status: 'error', message: 'You have reached your ten_secondly_rolling limit.', errorType: 'RATE_LIMIT', correlationId: crypto.randomUUID(), policyName: 'TEN_SECONDLY_ROLLING', groupName: 'publicapi:app-api-calls-oauth' },
      };
    }
    const bearer = headers.authorization?.replace(/^Bearer /, '') ?? '';
    const refusal = this.refusal(bearer);
    if (refusal !== null) {
      const message = refusal === 'EXPIRED_AUTHENTICATION' ? 'The OAuth token used to make this call expired.' : 'Authentication credentials not found.';
      return { status: 401, body: { status: 'error', message, correlationId: crypto.randomUUID(), category: refusal } };
    }
    return answerCrm(this, method, url, body, bearer);
  }

  /**
   * The headers HubSpot sends with a call to `url`: its v3 signature, made here from HubSpot's documented
   * steps (not with the adapter's code, which it checks).
   */
  signedHeaders(method: string, url: string, body: string, timestampMs = Date.now(), clientSecret: string = this.clientSecret): Record<string, string> {
    // HubSpot signs the URI with these escapes decoded (its v3 instructions list them for the receiver to decode).
    const uri = url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (escape) => decodeURIComponent(escape));
    const source = `${method}${uri}${body}${String(timestampMs)}`;
    return {
      'content-type': 'application/json',
      'x-hubspot-signature-v3': crypto.createHmac('sha256', clientSecret).update(source).digest('base64'),
      'x-hubspot-request-timestamp': String(timestampMs),
    };
  }

  /** A custom workflow action's request body for a contact, as HubSpot sends it. */
  workflowActionBody(contactId: string, inputFields: Record<string, string | number | null>): Record<string, unknown> {
    const contact = this.contacts.find((c) => c.id === contactId);
    return {
      callbackId: `ap-${String(this.hubId)}-${crypto.randomInt(1e9)}-1-0`,
      origin: { portalId: this.hubId, actionDefinitionId: 1_450_001, actionDefinitionVersion: 1, actionExecutionIndexIdentifier: { enrollmentId: crypto.randomInt(1e9), actionExecutionIndex: 0 } },
      context: { source: 'WORKFLOWS', workflowId: 98_765 },
      object: { objectId: Number(contactId), objectType: 'CONTACT', properties: contact?.properties ?? {} },
      inputFields,
    };
  }
}
