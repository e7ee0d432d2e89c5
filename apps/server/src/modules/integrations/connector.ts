import type { z } from 'zod';
import type { CallDirection, CallStatus, IntegrationKind } from '@parley/shared';
import type { Config } from '../../platform/config.js';
import type { GuardedFetch } from '../../platform/net/guardedFetch.js';

/*
 * What the framework needs from a connector (docs/integrations.md, "The connector interface"). A connector
 * is pure provider talk: it never touches the database; the framework keeps credentials, cursors, counts,
 * contact links and the conflict rule.
 */

/** The credentials a connector keeps (encrypted at rest as one JSON object). */
export type Credentials = Readonly<Record<string, string>>;

/** What every provider call is given. */
export interface ConnectorSession {
  credentials: Credentials;
  properties: Readonly<Record<string, unknown>>;
  /** The guarded fetcher, with the hosts the operator configured for this connector let through. */
  fetch: GuardedFetch;
  config: Config;
}

/** A contact as the provider has it. `phone` is as the provider stores it; the framework normalises it. */
export interface ProviderContact {
  externalId: string;
  phone: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** A contact's tags (names) by the provider's contact id. */
export interface ProviderContactTags {
  externalId: string;
  tags: string[];
}

/**
 * A call as a call tracker or phone system reports it (docs/calls.md). The framework files it in the
 * caller's conversation on the account's number the integration names (property `callNumberId`).
 */
export interface ProviderCall {
  externalId: string;
  direction: CallDirection;
  status: CallStatus;
  /** ISO 8601. */
  startedAt: string;
  durationSeconds: number;
  from: string;
  to: string;
  recordingUrl: string | null;
  /** What the provider tells about the call: tracking source, campaign, keywords ... */
  attributes: Record<string, string>;
  /** The other party's name as the provider has it, for a contact the call creates. */
  contactName: { firstName: string; lastName: string };
}

/** One page of a sync; `next` is the cursor of the page after it (null: this was the last). */
export interface SyncPage<T> {
  items: T[];
  next: string | null;
  /** The provider's total count, when it says. */
  total?: number;
  /** Calls the page brings (a call tracker's contacts sync is its calls' callers): recorded with the page. */
  calls?: ProviderCall[];
}

/** A message to record on the provider's contact. */
export interface MessageActivity {
  direction: 'inbound' | 'outbound';
  text: string;
  at: string;
  /** The Parley contact's E.164 mobile and names, to find the provider's contact when none is linked. */
  contact: { mobile: string; firstName: string; lastName: string };
  /** The provider's contact already linked to it by a sync, if any. */
  externalId: string | null;
}

/** A contact created in Parley, as a connector pushes it to the provider. */
export interface PushedContact {
  mobile: string;
  firstName: string;
  lastName: string;
  email: string;
}

/** An inbound text to carry into the provider's conversation (connectors that keep conversations: Intercom). */
export interface RelayedMessage {
  text: string;
  /** The Parley contact's E.164 mobile and names, to find or create the provider's contact when none is linked. */
  contact: { mobile: string; firstName: string; lastName: string };
  /** The provider's contact linked to it already (null: none yet). */
  contactExternalId: string | null;
  /** The provider's conversation linked to the Parley conversation and still open; null: open a new one. */
  conversationExternalId: string | null;
}

/**
 * A provider whose inbox holds conversations (docs/integrations.md, "Intercom"): a contact's text goes into the
 * provider's conversation linked to the Parley conversation, and the two close together. The framework keeps
 * the links (integration_conversations) and posts each message once.
 */
export interface ConversationCarrier {
  /** Posts the text as the contact; answers the provider's contact and conversation it went to. */
  relayInbound(session: ConnectorSession, message: RelayedMessage): Promise<{ contactExternalId: string; conversationExternalId: string }>;
  /** Closes the provider's conversation (a Parley conversation closed). */
  close(session: ConnectorSession, conversationExternalId: string): Promise<void>;
}

/** API key connectors: the connect form's fields (a shared schema) and a check against the provider. */
export interface ApiKeyAuth {
  type: 'apiKey';
  fields: z.ZodType<Record<string, string>>;
  /**
   * Calls the provider with the fields; resolves with the credentials to keep and what identifies the
   * connection (shown on the page), or throws ProviderError ('unauthorized' when refused).
   */
  connect(session: Omit<ConnectorSession, 'credentials' | 'properties'>, fields: Record<string, string>): Promise<{ credentials: Credentials; connection: Record<string, string> }>;
}

/** Tokens of an OAuth connection; `expiresAt` ISO, absent when they do not expire. */
export interface OAuthTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: string;
  /** What identifies the connection (the provider's portal or company id). */
  connection?: Record<string, string>;
  /** What else the connector keeps with the tokens, sealed as they are (Pipedrive's company API domain). */
  extra?: Credentials;
}

/** OAuth 2 authorization-code connectors, with PKCE (S256) and a state the framework keeps. */
export interface OAuthAuth {
  type: 'oauth';
  /** False when the operator has not registered the app (its client id is not configured). */
  configured(config: Config): boolean;
  authorizeUrl(config: Config, input: { state: string; codeChallenge: string; redirectUri: string }): string;
  exchangeCode(session: Omit<ConnectorSession, 'credentials' | 'properties'>, input: { code: string; codeVerifier: string; redirectUri: string }): Promise<OAuthTokens>;
  refresh(session: Omit<ConnectorSession, 'properties'>): Promise<OAuthTokens>;
}

/** A request the provider sends to Parley, as the verifier sees it. */
export interface InboundRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: Buffer;
}

export interface Connector {
  kind: IntegrationKind;
  auth: ApiKeyAuth | OAuthAuth;
  /** The properties' schema (shared with the page) and their values before any change. */
  properties: z.ZodObject;
  defaultProperties: Readonly<Record<string, unknown>>;
  /** Hosts the operator configured for this connector (a base URL from configuration), let through the fetcher. */
  operatorHosts(config: Config): string[];
  /** What it syncs, each a paged function: the cursor null starts from the beginning. */
  sync: Partial<{
    contacts: (session: ConnectorSession, cursor: string | null) => Promise<SyncPage<ProviderContact>>;
    tags: (session: ConnectorSession, cursor: string | null) => Promise<SyncPage<ProviderContactTags>>;
  }>;
  /**
   * Records a message sent or received on the provider's contact; answers that contact's id (null: none
   * found). A property `recordMessages: false` turns it off for the account (activitySubscriber.ts).
   */
  recordMessage?: (session: ConnectorSession, activity: MessageActivity) => Promise<string | null>;
  /**
   * Creates the contact at the provider (a contact created in Parley, when the account's property
   * `pushContacts` is on); answers the provider's id for it, or the id of the one it already has under that
   * mobile. The framework links the two.
   */
  pushContact?: (session: ConnectorSession, contact: PushedContact) => Promise<string>;
  /** Carries contacts' texts into the provider's conversations and closes them with Parley's. */
  conversations?: ConversationCarrier;
  /** Checks a request the provider signed (unsigned or tampered: false). */
  verifyInbound?: (config: Config, request: InboundRequest) => boolean;
  /** Revokes the credentials at the provider where it allows it; failures are the provider's and ignored. */
  revoke?: (session: ConnectorSession) => Promise<void>;
}
