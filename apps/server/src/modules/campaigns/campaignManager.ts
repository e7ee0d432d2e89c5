import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CAMPAIGN_CONTACTS_UNKNOWN_MESSAGE,
  CAMPAIGN_LISTS_UNKNOWN_MESSAGE,
  CAMPAIGN_RUNNING_MESSAGE,
  CAMPAIGN_SCHEDULE_PAST_MESSAGE,
  CAMPAIGN_SENDER_UNKNOWN_MESSAGE,
  CAMPAIGN_TEMPLATE_UNKNOWN_MESSAGE,
  emptyCampaignFilters,
  nextExecution,
  type CampaignListQuery,
  type SaveCampaign,
} from '@parley/shared';
import { queryRows, type Db, type Queryable, type Tx } from '../../platform/db/client.js';
import { campaignJobs, campaigns, contactGroups, phoneNumbers, templates, type CampaignRow } from '../../platform/db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { requireOwnMedia } from '../media/index.js';
import { visibleTemplateCondition, type TemplateViewer } from '../templates/index.js';
import { CAMPAIGN_NOT_FOUND, lockCampaign } from './campaignExecutor.js';
import { isUuid } from '../../platform/db/ids.js';

/*
 * The campaign records: list, read, add, replace, remove. A save keeps only what its trigger uses, checks
 * that what it names (group or number, template, lists, contacts) belongs to the account, and works out
 * the next execution of a Scheduled campaign from its schedule.
 */

const notFoundError = (): AppError => new AppError(404, 'not_found', `${CAMPAIGN_NOT_FOUND} was not found.`);
const invalidField = (path: string, message: string): AppError => new AppError(400, 'validation_failed', `${path}: ${message}`);

/** The account's campaigns, the most recently updated first; inactive ones only when asked for. */
export async function listCampaigns(q: Queryable, accountId: string, query: CampaignListQuery): Promise<{ rows: CampaignRow[]; totalCount: number }> {
  const where = and(eq(campaigns.accountId, accountId), query.showInactive ? undefined : eq(campaigns.active, true));
  const [total] = await q.select({ n: count() }).from(campaigns).where(where);
  const rows = await q
    .select()
    .from(campaigns)
    .where(where)
    .orderBy(desc(campaigns.updatedAt), desc(campaigns.id))
    .limit(query.limit)
    .offset(query.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** One campaign of the account; null for another account's, an unknown or a malformed id. */
export async function findCampaign(q: Queryable, accountId: string, id: string): Promise<CampaignRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await q
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)))
    .limit(1);
  return row ?? null;
}

const idsParam = (ids: readonly string[]): SQL => sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::uuid)`;

/** How many of `ids` the table holds for the account. */
async function countOwned(tx: Tx, table: 'contact_lists' | 'contacts', accountId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${sql.identifier(table)} where account_id = ${accountId} and id in ${idsParam(ids)}`,
  );
  return row?.n ?? 0;
}

/** The group or number of `phoneNumberFilter` must be the account's. */
async function checkSenderOwned(tx: Tx, accountId: string, group: string): Promise<void> {
  const [sender] = await queryRows<{ found: boolean }>(
    tx,
    sql`select exists (select 1 from ${contactGroups} where ${contactGroups.accountId} = ${accountId} and ${contactGroups.id} = ${group})
            or exists (select 1 from ${phoneNumbers} where ${phoneNumbers.accountId} = ${accountId} and ${phoneNumbers.id} = ${group}) as found`,
  );
  if (sender?.found !== true) throw invalidField('phoneNumberFilter.group', CAMPAIGN_SENDER_UNKNOWN_MESSAGE);
}

/**
 * Another account's group, template, list or contact reads as unknown, as a made-up id does; another
 * account's media file answers 404, as in a send.
 */
async function checkReferences(tx: Tx, accountId: string, viewer: TemplateViewer, input: SaveCampaign): Promise<void> {
  await requireOwnMedia(tx, accountId, input.media);
  if (input.phoneNumberFilter !== null) await checkSenderOwned(tx, accountId, input.phoneNumberFilter.group);
  if (input.templateId !== null) {
    const [template] = await tx
      .select({ id: templates.id })
      .from(templates)
      .where(and(eq(templates.accountId, accountId), eq(templates.id, input.templateId), eq(templates.type, 'SMS'), visibleTemplateCondition(viewer)))
      .limit(1);
    if (!template) throw invalidField('templateId', CAMPAIGN_TEMPLATE_UNKNOWN_MESSAGE);
  }
  const lists = [...new Set(input.filters.lists)];
  if ((await countOwned(tx, 'contact_lists', accountId, lists)) !== lists.length) throw invalidField('filters.lists', CAMPAIGN_LISTS_UNKNOWN_MESSAGE);
  const chosen = [...new Set(input.filters.contacts)];
  if ((await countOwned(tx, 'contacts', accountId, chosen)) !== chosen.length) throw invalidField('filters.contacts', CAMPAIGN_CONTACTS_UNKNOWN_MESSAGE);
}

/** The columns a save writes: what the trigger does not use is not kept. */
function columnsOf(input: SaveCampaign) {
  const code = input.trigger.code;
  return {
    name: input.name,
    description: input.description,
    messagingType: input.messagingType,
    trigger: code,
    // `{}`: the account's own routing (campaignStored.ts reads it back as null).
    phoneNumberFilter: input.phoneNumberFilter === null ? {} : { group: input.phoneNumberFilter.group },
    schedule: code === 'S' ? input.schedule : null,
    filters:
      code === 'FU'
        ? emptyCampaignFilters()
        : { ...input.filters, lists: [...new Set(input.filters.lists)], contacts: [...new Set(input.filters.contacts)] },
    templateId: input.templateId,
    template: input.template,
    media: input.media.map((m) => ({ url: m.url, type: m.type, filename: m.filename })),
    reporting: input.reporting,
    fieldMappings: code === 'FU' ? input.fieldMappings : [],
    active: input.active,
  };
}

/** Compared field by field: jsonb hands keys back in its own order. */
function sameSchedule(stored: unknown, given: object): boolean {
  if (stored === null || typeof stored !== 'object') return false;
  const canonical = (value: object): string => JSON.stringify(value, Object.keys(value).sort());
  return canonical(stored) === canonical(given);
}

/**
 * When a Scheduled campaign runs next: from its schedule, after now, while it is active. A schedule that is
 * new or changed must have a time ahead (a once-only time already passed today is refused); one kept as
 * it was may have none left (a once-only campaign that ran).
 */
function nextExecutionOf(input: SaveCampaign, now: Date, previous: CampaignRow | null): Date | null {
  if (input.trigger.code !== 'S' || input.schedule === null || !input.active) return null;
  const next = nextExecution(input.schedule, now);
  const unchanged = previous !== null && previous.trigger === 'S' && sameSchedule(previous.schedule, input.schedule);
  if (next === null && !unchanged) throw invalidField('schedule', CAMPAIGN_SCHEDULE_PAST_MESSAGE);
  return next;
}

export function createCampaign(db: Db, accountId: string, viewer: TemplateViewer, userId: string | null, input: SaveCampaign, now = new Date()): Promise<CampaignRow> {
  return db.transaction(async (tx) => {
    await checkReferences(tx, accountId, viewer, input);
    const [row] = await tx
      .insert(campaigns)
      .values({
        id: uuidv7(),
        accountId,
        ...columnsOf(input),
        nextExecutionAt: nextExecutionOf(input, now, null),
        createdByUserId: userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('the campaign insert returned nothing');
    return row;
  });
}

/** Replaces the campaign (its executions, count and last run stay). */
export function updateCampaign(db: Db, accountId: string, id: string, viewer: TemplateViewer, input: SaveCampaign, now = new Date()): Promise<CampaignRow> {
  return db.transaction(async (tx) => {
    const current = await lockCampaign(tx, accountId, id);
    if (!current) throw notFoundError();
    await checkReferences(tx, accountId, viewer, input);
    const [row] = await tx
      .update(campaigns)
      .set({ ...columnsOf(input), nextExecutionAt: nextExecutionOf(input, now, current), updatedAt: now })
      .where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)))
      .returning();
    if (!row) throw notFoundError();
    return row;
  });
}

/** Removes a campaign with its executions; refused while one is still sending. */
export function removeCampaign(db: Db, accountId: string, id: string): Promise<void> {
  return db.transaction(async (tx) => {
    const current = await lockCampaign(tx, accountId, id);
    if (!current) throw notFoundError();
    const [running] = await tx
      .select({ id: campaignJobs.id })
      .from(campaignJobs)
      .where(and(eq(campaignJobs.campaignId, id), eq(campaignJobs.status, 'running')))
      .limit(1);
    if (running) throw new AppError(409, 'conflict', CAMPAIGN_RUNNING_MESSAGE);
    await tx.delete(campaigns).where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, id)));
  });
}
