import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { users } from './identity.js';
import { contactGroups, contacts } from './contacts.js';
import { conversations, phoneNumbers } from './messaging.js';

/**
 * An account's connection to an outside service (docs/integrations.md). `credentials` is AES-256-GCM
 * ciphertext of a JSON object (platform/secrets/cipher.ts, bound to the row's id), never the keys or tokens
 * themselves; `connection` is what identifies it without a secret (ActiveCampaign's API URL).
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['connected', 'error'] }).notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>().notNull().default({}),
    connection: jsonb('connection').$type<Record<string, string>>().notNull().default({}),
    credentials: text('credentials').notNull(),
    errorReason: text('error_reason'),
    connectedBy: uuid('connected_by').references(() => users.id, { onDelete: 'set null' }),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integrations_account_kind_idx').on(t.accountId, t.kind)],
);
export type IntegrationRow = typeof integrations.$inferSelect;

/**
 * One synchronization (contacts or tags) of an integration: its progress, counts and the provider's page
 * cursor, written after each page so a worker that dies resumes where the last page ended. At most one
 * is active (queued, running or waiting) per account and kind.
 */
export const integrationSyncs = pgTable(
  'integration_syncs',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    syncKind: text('sync_kind', { enum: ['contacts', 'tags'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'waiting', 'completed', 'failed'] }).notNull().default('queued'),
    cursor: text('cursor'),
    done: integer('done').notNull().default(0),
    total: integer('total'),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    /** Reasons with a count and up to five examples each. */
    skippedReasons: jsonb('skipped_reasons').$type<{ reason: string; count: number; examples: string[] }[]>().notNull().default([]),
    resumeAt: timestamp('resume_at', { withTimezone: true }),
    error: text('error'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integration_syncs_account_idx').on(t.accountId, t.kind, t.syncKind, t.createdAt),
    uniqueIndex('integration_syncs_active_idx')
      .on(t.accountId, t.kind)
      .where(sql`${t.status} in ('queued', 'running', 'waiting')`),
  ],
);
export type IntegrationSyncRow = typeof integrationSyncs.$inferSelect;

/**
 * A Parley contact and the provider's record it was synced with, with the field values as the last sync left
 * them in Parley: a field that differs from these now was changed in Parley since (the conflict rule).
 */
export const integrationContacts = pgTable(
  'integration_contacts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    externalId: text('external_id').notNull(),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    synced: jsonb('synced').$type<Record<string, string>>().notNull().default({}),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_contacts_external_idx').on(t.accountId, t.kind, t.externalId),
    uniqueIndex('integration_contacts_contact_idx').on(t.accountId, t.kind, t.contactId),
  ],
);

/**
 * What an activity row asks of the connector: record a message (its conversation's id, for connectors that
 * carry conversations; absent on rows written before), push a contact created in Parley, or close the
 * provider's conversation linked to a Parley conversation that closed.
 */
export type IntegrationActivityData =
  | { direction: 'inbound' | 'outbound'; text: string; at: string; messageId: string; conversationId?: string }
  | { action: 'pushContact' }
  | { action: 'closeConversation'; conversationId: string };

/**
 * Messages to record on the provider's contact (a note) and contacts to push to the provider, written by the
 * outbox subscriber in its round and sent by the integrations.activities job; a row stays until it is
 * recorded or given up.
 */
export const integrationActivities = pgTable(
  'integration_activities',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    eventId: text('event_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    data: jsonb('data').$type<IntegrationActivityData>().notNull(),
    status: text('status', { enum: ['pending', 'recorded', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_activities_event_idx').on(t.accountId, t.kind, t.eventId),
    index('integration_activities_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * An OAuth authorization in progress: single use (deleted when the provider's redirect comes back), bound to
 * the user and account that started it, valid for ten minutes; the PKCE verifier never leaves the server.
 * Only a hash of the state is kept.
 */
export const integrationOauthStates = pgTable('integration_oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * A Parley conversation carried into a provider's inbox (Intercom): one provider conversation per Parley
 * conversation. 'closing' while the provider closed it but replies held by the reply delay are still to be
 * texted (docs/decisions.md, "Intercom reply delay"); 'closed' once both sides are closed.
 */
export const integrationConversations = pgTable(
  'integration_conversations',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    status: text('status', { enum: ['open', 'closing', 'closed'] }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_conversations_external_idx').on(t.accountId, t.kind, t.externalId),
    uniqueIndex('integration_conversations_conversation_idx').on(t.accountId, t.kind, t.conversationId),
  ],
);
export type IntegrationConversationRow = typeof integrationConversations.$inferSelect;

/**
 * A message posted into the provider's conversation, by the Parley message's id: the key that keeps a retried
 * activity from posting it twice (claimed before the call, released when the call fails).
 */
export const integrationConversationMessages = pgTable(
  'integration_conversation_messages',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    messageId: uuid('message_id').notNull(),
    externalConversationId: text('external_conversation_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integration_conversation_messages_idx').on(t.accountId, t.kind, t.messageId)],
);

/**
 * An Intercom agent's reply waiting for the account's reply delay, then texted (with the other parts of the
 * same conversation that are due) by the integrations.intercomReplies job. One row per conversation part:
 * a webhook Intercom delivers again adds nothing.
 */
export const intercomReplies = pgTable(
  'intercom_replies',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => integrationConversations.id, { onDelete: 'cascade' }),
    partId: text('part_id').notNull(),
    text: text('text').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /** 'sending' while a run of the job holds it (claimed in one statement, so two runs never text it twice). */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed'] }).notNull().default('pending'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('intercom_replies_part_idx').on(t.linkId, t.partId),
    index('intercom_replies_pending_idx').on(t.linkId, t.dueAt).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * A phone system's number (AirCall's lines) as its last refresh found it, and where its calls go in Parley
 * (docs/integrations.md, "AirCall"): the account's number with the same E.164 digits, or a group (its first
 * number), found on refresh or chosen by an administrator (`mappedBy` 'admin': a refresh keeps the choice).
 */
export const integrationLines = pgTable(
  'integration_lines',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    /** E.164 as Parley writes numbers ('' when the provider's digits are not a number). */
    number: text('number').notNull(),
    phoneNumberId: uuid('phone_number_id').references(() => phoneNumbers.id, { onDelete: 'set null' }),
    groupId: uuid('group_id').references(() => contactGroups.id, { onDelete: 'set null' }),
    mappedBy: text('mapped_by', { enum: ['auto', 'admin'] }).notNull().default('auto'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integration_lines_external_idx').on(t.accountId, t.kind, t.externalId)],
);
export type IntegrationLineRow = typeof integrationLines.$inferSelect;

/** A phone system's users (AirCall's agents) as the last refresh found them: who answers, shown on the page. */
export const integrationUsers = pgTable(
  'integration_users',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('integration_users_external_idx').on(t.accountId, t.kind, t.externalId)],
);
export type IntegrationUserRow = typeof integrationUsers.$inferSelect;
