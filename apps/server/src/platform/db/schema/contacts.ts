import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ContactNumberTypeSource } from '@parley/shared';
import { accounts } from './accounts.js';
import { users } from './identity.js';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The people an account texts. `mobileNumber` is E.164 when the contact is valid and the number as given
 * when it is not (then `valid` is false and `errorDescription` says why). One contact per number per account.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    mobileNumber: text('mobile_number').notNull(),
    mobileCountry: text('mobile_country').notNull(),
    email: text('email'),
    /** Custom attribute values by the account's attribute names. */
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull().default({}),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    valid: boolean('valid').notNull().default(true),
    errorDescription: text('error_description'),
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    /** Opted out of everything the account sends (STOP); START clears it. */
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    /** From the optional number-type lookup (MOBILE, FIXED_LINE, VOIP ...), charged once per contact. */
    numberType: text('number_type'),
    numberTypeCheckedAt: timestamp('number_type_checked_at', { withTimezone: true }),
    /**
     * Where the type came from: 'range' (libphonenumber, while the lookup provider has not answered yet),
     * 'provider' or 'simulator'; null for types stored before sources were kept (docs/decisions.md).
     */
    numberTypeSource: text('number_type_source').$type<ContactNumberTypeSource>(),
    /** The number the contact last talked to; later sends keep it (no foreign key: numbers are released, never deleted). */
    senderPhoneNumberId: uuid('sender_phone_number_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_account_mobile_idx').on(t.accountId, t.mobileNumber),
    // The list's default order (created, then id, newest first) read straight from the index.
    index('contacts_account_created_idx').on(t.accountId, t.createdAt, t.id),
    index('contacts_tags_idx').using('gin', t.tags),
    // The refinement job's queue: types read from the range that the lookup provider has yet to confirm.
    index('contacts_number_type_range_idx').on(t.numberTypeCheckedAt).where(sql`number_type_source = 'range'`),
  ],
);

export type ContactRow = typeof contacts.$inferSelect;

/** The names of an account's custom contact attributes (GET attributes lists them). */
export const accountAttributes = pgTable(
  'account_attributes',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.name] })],
);

export const contactLists = pgTable(
  'contact_lists',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_lists_account_idx').on(t.accountId, t.createdAt)],
);

export type ContactListRow = typeof contactLists.$inferSelect;

/** A contact on a list, with its own consent: opted in or out of this list, and when. */
export const listMembers = pgTable(
  'list_members',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    listId: uuid('list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['subscribed', 'optedIn', 'optedOut'] })
      .notNull()
      .default('subscribed'),
    optInAt: timestamp('opt_in_at', { withTimezone: true }),
    optOutAt: timestamp('opt_out_at', { withTimezone: true }),
    /** Where the consent came from (import, opt-in page, reply), with the address when known. */
    consentSource: text('consent_source'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('list_members_list_contact_idx').on(t.listId, t.contactId),
    index('list_members_contact_idx').on(t.contactId),
  ],
);

export type ListMemberRow = typeof listMembers.$inferSelect;

/** Groups route conversations: the numbers they hold (group_phone_numbers) and the users who see them. */
export const contactGroups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('groups_account_idx').on(t.accountId)],
);

export type GroupRow = typeof contactGroups.$inferSelect;

export const groupUsers = pgTable(
  'group_users',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => contactGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_users_user_idx').on(t.userId)],
);

/**
 * A CSV import: the uploaded file is kept here (every process of a deployment can reach it) until the
 * background job has read it; progress and the result are written as the job goes.
 */
export const contactImports = pgTable(
  'contact_imports',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    fileName: text('file_name').notNull(),
    file: bytea('file'),
    fileSize: integer('file_size').notNull(),
    mergeStrategy: text('merge_strategy', { enum: ['append', 'core', 'remove'] })
      .notNull()
      .default('append'),
    /** `{ [csvColumn]: attribute | null }` and `{ [attribute]: defaultValue }`. */
    mapping: jsonb('mapping').notNull().default({}),
    defaults: jsonb('defaults').notNull().default({}),
    totalRows: integer('total_rows'),
    processedRows: integer('processed_rows').notNull().default(0),
    submitted: integer('submitted').notNull().default(0),
    missingMobile: integer('missing_mobile').notNull().default(0),
    success: integer('success').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    /** `[{ row, reason }]`, row numbers as the file counts them (the header is row 1). */
    errors: jsonb('errors').notNull().default([]),
    errorMessage: text('error_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('contact_imports_account_idx').on(t.accountId, t.createdAt)],
);

export type ContactImportRow = typeof contactImports.$inferSelect;

/**
 * "Check number types" on selected contacts (docs/decisions.md, "Check number types"). The job walks `contactIds`
 * in order; `processed` is its cursor, moved in the same transaction as the contacts it covers, so a job
 * that dies resumes after the last batch it committed.
 */
export const numberTypeChecks = pgTable(
  'number_type_checks',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    /** The selected contacts' ids, in the order they are checked. */
    contactIds: jsonb('contact_ids').$type<string[]>().notNull(),
    processed: integer('processed').notNull().default(0),
    checked: integer('checked').notNull().default(0),
    alreadyChecked: integer('already_checked').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    notPaid: integer('not_paid').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('number_type_checks_account_idx').on(t.accountId, t.createdAt)],
);

export type NumberTypeCheckRow = typeof numberTypeChecks.$inferSelect;

/** Who did what to personal data (privacy downloads and deletions, and other sensitive acts). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorClientId: text('actor_client_id'),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id'),
    details: jsonb('details').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_account_idx').on(t.accountId, t.createdAt)],
);
