import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { contactGroups, contacts } from './contacts.js';
import { users } from './identity.js';

export const carrierNames = ['simulator', 'smpp', 'twilio'] as const;

/**
 * An account's own carrier connection (SMPP or Twilio credentials of its own). Numbers without one use the
 * deployment's carrier from the environment. `secret` is AES-256-GCM ciphertext (platform/secrets/cipher.ts), never
 * the secret itself; `settings` holds what is not secret (host, port, system id, account SID).
 */
export const carrierSettings = pgTable(
  'carrier_settings',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    carrier: text('carrier', { enum: ['smpp', 'twilio'] }).notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<Record<string, string | number | boolean>>().notNull().default({}),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('carrier_settings_account_idx').on(t.accountId)],
);

export type CarrierSettingsRow = typeof carrierSettings.$inferSelect;

export const phoneNumberStatuses = ['active', 'unverified', 'pending', 'suspended', 'released'] as const;
export const phoneNumberTypes = ['longcode', 'tollfree', 'shortcode', 'senderid'] as const;

/**
 * A number (or alphanumeric sender id) an account sends from. Only an `active` number sends and receives;
 * one active number belongs to one account, so an inbound message finds its account. `nextDispatchAt` is the
 * dispatcher's rate gate: a worker that claims a batch for the number (its row locked, SKIP LOCKED) moves it
 * forward by batch size / messagesPerSecond, so several workers together keep to the number's rate.
 */
export const phoneNumbers = pgTable(
  'phone_numbers',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    name: text('name').notNull().default(''),
    country: text('country').notNull(),
    type: text('type', { enum: phoneNumberTypes }).notNull().default('longcode'),
    carrier: text('carrier', { enum: carrierNames }).notNull(),
    /** Null: the deployment's carrier connection. */
    carrierSettingsId: uuid('carrier_settings_id').references(() => carrierSettings.id, { onDelete: 'restrict' }),
    carrierNumberId: text('carrier_number_id'),
    status: text('status', { enum: phoneNumberStatuses }).notNull(),
    hosted: boolean('hosted').notNull().default(false),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    supportedDestinations: text('supported_destinations').array().notNull().default(sql`'{}'::text[]`),
    forwardTo: text('forward_to'),
    universalReply: boolean('universal_reply').notNull().default(false),
    messagesPerSecond: integer('messages_per_second').notNull().default(1),
    nextDispatchAt: timestamp('next_dispatch_at', { withTimezone: true }).notNull().defaultNow(),
    /** sha256 of the 6-digit code of the verification call in progress. */
    verificationCodeHash: text('verification_code_hash'),
    verificationExpiresAt: timestamp('verification_expires_at', { withTimezone: true }),
    verificationAttempts: integer('verification_attempts').notNull().default(0),
    verificationRequestedAt: timestamp('verification_requested_at', { withTimezone: true }),
    /** The letter of authorisation of a hosted number, as submitted. */
    loa: jsonb('loa'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('phone_numbers_rate_positive', sql`${t.messagesPerSecond} > 0`),
    uniqueIndex('phone_numbers_active_number_idx').on(t.number).where(sql`${t.status} = 'active'`),
    index('phone_numbers_account_idx').on(t.accountId, t.createdAt),
  ],
);

export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;

/** The numbers a group holds: inbound messages to them go to the group's conversations. */
export const groupPhoneNumbers = pgTable(
  'group_phone_numbers',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => contactGroups.id, { onDelete: 'cascade' }),
    phoneNumberId: uuid('phone_number_id')
      .notNull()
      .references(() => phoneNumbers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.phoneNumberId] }), index('group_phone_numbers_number_idx').on(t.phoneNumberId)],
);

/** One open conversation per contact and number; a closed one stays as history and a new one opens. */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    phoneNumberId: uuid('phone_number_id').references(() => phoneNumbers.id, { onDelete: 'set null' }),
    groupId: uuid('group_id').references(() => contactGroups.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    lastMessageId: uuid('last_message_id'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_open_idx')
      .on(t.accountId, t.contactId, t.phoneNumberId)
      .where(sql`${t.closedAt} is null`),
    index('conversations_account_last_idx').on(t.accountId, t.lastMessageAt),
    // The open conversations list: newest activity first, then id (conversationQueries.ts), a page read in order.
    index('conversations_open_activity_idx')
      .on(t.accountId, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id)
      .where(sql`${t.closedAt} is null`),
    index('conversations_contact_idx').on(t.contactId),
  ],
);

export type ConversationRow = typeof conversations.$inferSelect;

export const messageStatuses = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'received'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/**
 * Every message, in and out. The table is also the send queue: the dispatcher claims `queued` rows whose
 * `sendAfter` has come (quiet hours and retry backoff move it), marks them `sending` in a committed
 * transaction before it submits, so a message is submitted at most once (docs/messaging.md).
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    phoneNumberId: uuid('phone_number_id').references(() => phoneNumbers.id, { onDelete: 'set null' }),
    direction: text('direction', { enum: ['inbound', 'outbound'] }).notNull(),
    fromNumber: text('from_number').notNull(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull().default(''),
    templateId: uuid('template_id'),
    /** The campaign execution that sent it (campaigns arrive later; no foreign key yet). */
    jobId: uuid('job_id'),
    /** `[{ url, type, filename }]` */
    media: jsonb('media').$type<{ url: string; type: string; filename: string }[]>().notNull().default([]),
    encoding: text('encoding', { enum: ['GSM-7', 'UCS-2'] }).notNull().default('GSM-7'),
    segments: integer('segments').notNull().default(0),
    /** What the account was charged for it, USD; 0 for inbound. */
    price: numeric('price', { precision: 14, scale: 4 }).notNull().default('0'),
    /** Set once a charge was given back (a refusal before the carrier accepted), so it is refunded once. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    status: text('status', { enum: messageStatuses }).notNull(),
    carrier: text('carrier', { enum: carrierNames }),
    carrierMessageId: text('carrier_message_id'),
    errorCode: text('error_code'),
    errorDescription: text('error_description'),
    attempts: integer('attempts').notNull().default(0),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
    /** The recipient's IANA zone for quiet hours; null when quiet hours do not apply (inbound, approved). */
    timeZone: text('time_zone'),
    /** An administrator approved sending it outside the account's acceptable hours. */
    approvedOutsideHoursAt: timestamp('approved_outside_hours_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    statusAt: timestamp('status_at', { withTimezone: true }),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** The message answered automatically (opt-out confirmation, HELP, auto responder), if any. */
    replyToId: uuid('reply_to_id'),
    eventType: text('event_type'),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('messages_price_not_negative', sql`${t.price} >= 0`),
    index('messages_dispatch_idx')
      .on(t.phoneNumberId, t.sendAfter, t.id)
      .where(sql`${t.status} = 'queued'`),
    index('messages_sending_idx').on(t.claimedAt).where(sql`${t.status} = 'sending'`),
    index('messages_carrier_id_idx').on(t.carrierMessageId).where(sql`${t.carrierMessageId} is not null`),
    // A redelivery comes to the same number; two connections (two SMSCs) may number their messages alike.
    uniqueIndex('messages_inbound_number_carrier_idx')
      .on(t.phoneNumberId, t.carrierMessageId)
      .where(sql`${t.direction} = 'inbound' and ${t.carrierMessageId} is not null`),
    // A conversation's newest messages in order (created, then id, read backwards); the account as a last
    // column lets a conversation's message count be answered from the index alone.
    index('messages_conversation_idx').on(t.conversationId, t.createdAt, t.id, t.accountId),
    index('messages_account_idx').on(t.accountId, t.createdAt),
    index('messages_contact_idx').on(t.contactId),
    index('messages_job_idx').on(t.jobId).where(sql`${t.jobId} is not null`),
    // Unread: an incoming message or an errored outgoing one nobody has marked read (docs/inbox.md).
    index('messages_unread_idx')
      .on(t.accountId, t.conversationId)
      .where(sql`${t.readAt} is null and (${t.direction} = 'inbound' or ${t.status} in ('failed', 'undelivered'))`),
  ],
);

export type MessageRow = typeof messages.$inferSelect;

/**
 * The simulator carrier's settings, one row for the deployment (id 1): what the virtual network does with
 * what it is sent. The outcome of the n-th message to a virtual phone depends only on the seed, the phone
 * and n, so a run repeats exactly under the same seed.
 */
export const simulatorSettings = pgTable('simulator_settings', {
  id: integer('id').primaryKey(),
  seed: integer('seed').notNull().default(1),
  latencyMs: integer('latency_ms').notNull().default(300),
  /** 0 to 1, 4 decimals. */
  failureRate: numeric('failure_rate', { precision: 5, scale: 4 }).notNull().default('0'),
  /**
   * `[{ code, text, stage }]` drawn from when a message fails: stage `submit` is a refusal at submit,
   * `delivery` an accepted message later reported undelivered.
   */
  errorCodes: jsonb('error_codes')
    .$type<{ code: string; text: string; stage: 'submit' | 'delivery' }[]>()
    .notNull()
    .default([]),
  messagesPerSecond: integer('messages_per_second').notNull().default(10),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The simulated network: what each virtual phone was sent (mt), what it sent (mo) and the verification
 * calls it took (call). `ref` is our message id on an mt row, so a submit repeated after a crash is the
 * same message, never a second one. A row with `dueAt` and no `doneAt` still has work: a receipt to report
 * (mt) or a message to hand to the engine (mo); simulator_pending lists those rows, so that finishing one
 * is an update on its own page (no index holds done_at or status; fillfactor 70, set by migration).
 */
export const simulatorMessages = pgTable(
  'simulator_messages',
  {
    id: uuid('id').primaryKey(),
    ref: text('ref'),
    kind: text('kind', { enum: ['mt', 'mo', 'call'] }).notNull(),
    /** The business side: the number the account sends from or that was texted. */
    businessNumber: text('business_number').notNull(),
    /** The virtual phone. */
    phoneNumber: text('phone_number').notNull(),
    body: text('body').notNull().default(''),
    media: jsonb('media').$type<{ url: string; contentType: string }[]>().notNull().default([]),
    /** mt: accepted | delivered | undelivered | failed; mo: pending | handed; call: placed. */
    status: text('status').notNull(),
    errorCode: text('error_code'),
    errorText: text('error_text'),
    /** The n-th message to this phone (mt), for the seeded outcome. */
    sequence: integer('sequence').notNull().default(0),
    dueAt: timestamp('due_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('simulator_messages_ref_idx').on(t.ref).where(sql`${t.ref} is not null`),
    index('simulator_messages_phone_idx').on(t.phoneNumber, t.createdAt),
    index('simulator_messages_business_idx').on(t.businessNumber, t.createdAt),
  ],
);

/**
 * The simulator_messages rows with work still to do, by when it is due: written with the row (or when a
 * repeated submit owes its receipt again) and deleted when the loop has done it. Kept apart so that the
 * loop's claims and its finishing touch a narrow table, whose index holds only what is still owed.
 * No foreign key: checking one a row would cost about what the table saves, and only the loop removes rows.
 */
export const simulatorPending = pgTable(
  'simulator_pending',
  {
    /** simulator_messages.id */
    id: uuid('id').primaryKey(),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    /**
     * Held by a loop until then (its handlers are at work). Not indexed, so taking a row is an update on its
     * own page (fillfactor 70, set by migration).
     */
    leasedUntil: timestamp('leased_until', { withTimezone: true }),
  },
  (t) => [index('simulator_pending_due_idx').on(t.dueAt, t.id)],
);

export type SimulatorMessageRow = typeof simulatorMessages.$inferSelect;
