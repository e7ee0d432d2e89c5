import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerCrm, type PeerAnswer } from './hubspotPeerCrm.js';
import { answerOAuth } from './hubspotPeerOAuth.js';
import { HubSpotPeerState } from './hubspotPeerState.js';

export type { PeerCommunication, PeerContact, PeerList } from './hubspotPeerState.js';

/**
 * A local HubSpot for tests: answers the OAuth token, token info and refresh token DELETE endpoints and the CRM
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

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.userAgents.push(request.headers['user-agent'] ?? '');
        const answer = this.answer(request.method ?? 'GET', new URL(request.url ?? '/', this.base), request.headers, Buffer.concat(chunks).toString('utf8'));
        response.writeHead(answer.status, { ...(answer.body === undefined ? {} : { 'content-type': 'application/json;charset=utf-8' }), ...answer.headers });
        response.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
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
  signedHeaders(method: string, url: string, body: string, timestampMs = Date.now(), clientSecret = this.clientSecret): Record<string, string> {
    const source = `${method}${url}${body}${String(timestampMs)}`;
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
