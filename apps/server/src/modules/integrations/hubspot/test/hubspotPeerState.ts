import crypto from 'node:crypto';
import type { PeerApp } from '../../test/peerApp.js';

/** A contact as the peer holds it. */
export interface PeerContact {
  id: string;
  properties: Record<string, string | null>;
  createdAt: string;
  updatedAt: string;
}

export interface PeerList {
  listId: string;
  name: string;
  /** '0-1' contacts; '0-2' companies (the adapter must leave those out). */
  objectTypeId: string;
  members: string[];
}

/** A communication logged through the API, with its associations as sent. */
export interface PeerCommunication {
  id: string;
  properties: Record<string, string>;
  associations: { to: { id: string }; types: { associationCategory: string; associationTypeId: number }[] }[];
  token: string;
}

interface AccessToken {
  refreshToken: string;
  expiresAtMs: number;
}

const token = (prefix: string): string => `${prefix}-${crypto.randomBytes(12).toString('hex')}`;

/** The peer's app, account and tokens: codes single use, refresh tokens revocable, access tokens expiring. */
export class HubSpotPeerState {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly hubId = 24_681_357;
  readonly hubDomain = 'acme.hubspot.com';
  readonly appId = 1_234_567;
  readonly scopes = ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.lists.read'];
  /** Seconds an access token lives (HubSpot: 1,800). */
  expiresIn = 1800;
  private readonly codes = new Map<string, string>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Set<string>();
  readonly contacts: PeerContact[] = [];
  readonly lists: PeerList[] = [];
  readonly communications: PeerCommunication[] = [];
  /** Every token request's form, for tests of what was sent. */
  readonly tokenRequests: URLSearchParams[] = [];
  /** Every introspection and revoke request's form. */
  readonly introspectRequests: URLSearchParams[] = [];
  readonly revokeRequests: URLSearchParams[] = [];
  private nextId = 1000;

  /** `app`: the app's credentials, a new one's by default (test/peerApp.ts). */
  constructor(app: PeerApp = {}) {
    this.clientId = app.clientId ?? crypto.randomUUID();
    this.clientSecret = app.clientSecret ?? crypto.randomUUID();
  }

  id(): string {
    this.nextId += 1;
    return String(this.nextId);
  }

  /** The code HubSpot puts on the redirect after the user approves, for that redirect URI. */
  issueCode(redirectUri: string): string {
    const code = token('code');
    this.codes.set(code, redirectUri);
    return code;
  }

  /** Spends a code: its redirect URI, or null when unknown or already spent. */
  takeCode(code: string): string | null {
    const redirectUri = this.codes.get(code);
    this.codes.delete(code);
    return redirectUri ?? null;
  }

  issueTokens(refreshToken = token('refresh')): { access_token: string; refresh_token: string; expires_in: number; token_type: string } {
    const accessToken = token('access');
    this.refreshTokens.add(refreshToken);
    this.accessTokens.set(accessToken, { refreshToken, expiresAtMs: Date.now() + this.expiresIn * 1000 });
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: this.expiresIn, token_type: 'bearer' };
  }

  knowsRefreshToken(refreshToken: string): boolean {
    return this.refreshTokens.has(refreshToken);
  }

  /** Deletes a refresh token and the access tokens made with it; false when unknown. */
  revoke(refreshToken: string): boolean {
    if (!this.refreshTokens.delete(refreshToken)) return false;
    for (const [access, held] of this.accessTokens) if (held.refreshToken === refreshToken) this.accessTokens.delete(access);
    return true;
  }

  /** Why an access token is refused (HubSpot's categories), or null when it is good. */
  refusal(accessToken: string): 'INVALID_AUTHENTICATION' | 'EXPIRED_AUTHENTICATION' | null {
    const held = this.accessTokens.get(accessToken);
    if (held === undefined) return 'INVALID_AUTHENTICATION';
    return held.expiresAtMs <= Date.now() ? 'EXPIRED_AUTHENTICATION' : null;
  }

  /** Ends an access token's life now (a test of an expired token). */
  expire(accessToken: string): void {
    const held = this.accessTokens.get(accessToken);
    if (held !== undefined) held.expiresAtMs = 0;
  }

  addContact(properties: Record<string, string | null>): PeerContact {
    const now = new Date().toISOString();
    const contact = { id: this.id(), properties: { ...properties, hs_lastmodifieddate: now }, createdAt: now, updatedAt: now };
    this.contacts.push(contact);
    return contact;
  }

  addList(name: string, members: string[], objectTypeId = '0-1'): PeerList {
    const list = { listId: this.id(), name, objectTypeId, members };
    this.lists.push(list);
    return list;
  }
}
