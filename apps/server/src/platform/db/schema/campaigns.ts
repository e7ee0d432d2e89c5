import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';
import { contactLists } from './contacts.js';
import { users } from './identity.js';

export const templateTypes = ['SMS', 'Web', 'OptIn'] as const;
export type TemplateType = (typeof templateTypes)[number];

/**
 * A saved message (docs/templates.md). SMS templates are chosen in the send box and by campaigns; a Web
 * template is sent by an HTTP call to its web-hook link; an OptIn template publishes a public page where a
 * person joins `optInListId` (its text is the confirmation sent to them). `private` templates are seen only
 * by the user who made them (and administrators). Tokens are `{{{name}}}`.
 */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type', { enum: templateTypes }).notNull(),
    template: text('template').notNull().default(''),
    /** `[{ url, type, filename }]` */
    media: jsonb('media').$type<{ url: string; type: string; filename: string }[]>().notNull().default([]),
    private: boolean('private').notNull().default(false),
    /** OptIn: the list a person who signs up on the page joins. */
    optInListId: uuid('opt_in_list_id').references(() => contactLists.id, { onDelete: 'set null' }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('templates_account_idx').on(t.accountId, t.type, t.name)],
);

export type TemplateRow = typeof templates.$inferSelect;

export const campaignTriggers = ['M', 'S', 'FU'] as const;
export type CampaignTrigger = (typeof campaignTriggers)[number];

/**
 * A campaign (docs/campaigns.md): who (filters), what (template text and media), from where
 * (phoneNumberFilter), when (trigger M manual, S scheduled, FU file upload) and who hears how it went
 * (reporting). `schedule`, `filters`, `reporting` and `fieldMappings` keep the shapes of the shared contract
 * (packages/shared). `nextExecutionAt` is computed from the schedule whenever it changes or runs; the
 * scheduler claims due rows with SKIP LOCKED, so a run happens once across processes.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    messagingType: text('messaging_type', { enum: ['transactional', 'marketing'] }).notNull(),
    trigger: text('trigger', { enum: campaignTriggers }).notNull(),
    /** `{ group }`: a group id or a phone number id. */
    phoneNumberFilter: jsonb('phone_number_filter').$type<Record<string, unknown>>().notNull(),
    schedule: jsonb('schedule').$type<Record<string, unknown> | null>(),
    /** `{ tags, attributes: [{ attribute, comparator, value }], lists, contacts }` */
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull().default({}),
    templateId: uuid('template_id').references(() => templates.id, { onDelete: 'set null' }),
    template: text('template').notNull().default(''),
    media: jsonb('media').$type<{ url: string; type: string; filename: string }[]>().notNull().default([]),
    /** `{ when, delay, unit, destination }` or null for no report. */
    reporting: jsonb('reporting').$type<Record<string, unknown> | null>(),
    /** FU: which column of an uploaded row fills which contact field. */
    fieldMappings: jsonb('field_mappings').$type<Record<string, unknown>[]>().notNull().default([]),
    active: boolean('active').notNull().default(true),
    executions: integer('executions').notNull().default(0),
    lastJobId: uuid('last_job_id'),
    lastExecutionAt: timestamp('last_execution_at', { withTimezone: true }),
    nextExecutionAt: timestamp('next_execution_at', { withTimezone: true }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_account_idx').on(t.accountId, t.updatedAt),
    index('campaigns_due_idx').on(t.nextExecutionAt).where(sql`${t.active} and ${t.nextExecutionAt} is not null`),
  ],
);

export type CampaignRow = typeof campaigns.$inferSelect;

/** 'preparing': its audience is being written (modules/campaigns/campaignPreparation.ts); nobody sees or sends it yet. */
export const campaignJobStatuses = ['preparing', 'running', 'done', 'failed'] as const;

/**
 * One execution of a campaign (docs/campaigns.md: the execution row, the job report). The audience is resolved into
 * `campaign_job_recipients` first, then sent in small batches (each its own transaction through
 * messageSender), so a process that dies resumes where it was and a recipient is sent at most once.
 * Messages carry `messages.job_id`; the report's statistics are counted from them.
 */
export const campaignJobs = pgTable(
  'campaign_jobs',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    status: text('status', { enum: campaignJobStatuses }).notNull().default('running'),
    /** What was sent: the campaign's template, media and sender as they were at execution. */
    template: text('template').notNull().default(''),
    media: jsonb('media').$type<{ url: string; type: string; filename: string }[]>().notNull().default([]),
    phoneNumberFilter: jsonb('phone_number_filter').$type<Record<string, unknown>>().notNull(),
    templateId: uuid('template_id'),
    /** Recipients resolved for the run (contacts that could be sent to). */
    recipients: integer('recipients').notNull().default(0),
    /** Messages queued so far. */
    submitted: integer('submitted').notNull().default(0),
    /** `[{ contactId?, mobile?, reason }]`: left out (opted out, blocked, invalid, bad row). */
    invalid: jsonb('invalid').$type<Record<string, unknown>[]>().notNull().default([]),
    failures: integer('failures').notNull().default(0),
    price: numeric('price', { precision: 14, scale: 4 }).notNull().default('0'),
    errorDescription: text('error_description'),
    /** The campaign's reporting as it was at execution (`{ when, delay, unit, destination }`), or null: none. */
    reporting: jsonb('reporting').$type<Record<string, unknown> | null>(),
    /** When the summary e-mail went out (reporting), so it is sent once. */
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    /** When a process took the summary to send it; another takes it over only after a lease (it died). */
    reportClaimedAt: timestamp('report_claimed_at', { withTimezone: true }),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('campaign_jobs_price_not_negative', sql`${t.price} >= 0`),
    index('campaign_jobs_campaign_idx').on(t.campaignId, t.createdAt),
    index('campaign_jobs_running_idx').on(t.createdAt).where(sql`${t.status} = 'running'`),
    index('campaign_jobs_unreported_idx').on(t.createdAt).where(sql`${t.reporting} is not null and ${t.reportedAt} is null`),
  ],
);

export type CampaignJobRow = typeof campaignJobs.$inferSelect;

/**
 * The recipients of one execution, in send order. `messageId` is set in the batch's own transaction, so a
 * resumed run skips what was sent; `data` is an uploaded row's values (FU) for the tokens.
 */
export const campaignJobRecipients = pgTable(
  'campaign_job_recipients',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => campaignJobs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    contactId: uuid('contact_id').notNull(),
    data: jsonb('data').$type<Record<string, string> | null>(),
    messageId: uuid('message_id'),
    /** Why it could not be sent at send time (a balance gone short, a number gone invalid). */
    error: text('error'),
  },
  (t) => [
    uniqueIndex('campaign_job_recipients_pk').on(t.jobId, t.position),
    index('campaign_job_recipients_pending_idx').on(t.jobId, t.position).where(sql`${t.messageId} is null and ${t.error} is null`),
  ],
);

export type CampaignJobRecipientRow = typeof campaignJobRecipients.$inferSelect;
