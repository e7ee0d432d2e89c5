import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  can,
  TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE,
  TEMPLATE_WEBHOOK_GROUP_MESSAGE,
  TEMPLATE_WEBHOOK_OTHER_USER_MESSAGE,
  TEMPLATE_WEBHOOK_USER_MESSAGE,
  TEMPLATE_WEBHOOK_WEB_ONLY_MESSAGE,
  unknownTemplateTokens,
  unknownTokensMessage,
  type SaveTemplate,
  type TemplateListQuery,
  type TemplateWebhookLinks,
  type TemplateWebhookQuery,
} from '@parley/shared';
import type { Config } from '../../platform/config.js';
import type { Db, Queryable, Tx } from '../../platform/db/client.js';
import { accountAttributes, accountMembers, contactGroups, contactLists, templates, type TemplateRow } from '../../platform/db/schema/index.js';
import { accountPhoneNumberIds } from '../groups/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { requireOwnMedia } from '../media/index.js';
import { seesEveryTemplate, templateCreatorId, visibleTemplateCondition, type TemplateViewer } from './visibility.js';
import { templateWebhookIntegrations, templateWebhookLink } from './webhookLink.js';
import { isUuid } from '../../platform/db/ids.js';

export const TEMPLATE_NOT_FOUND = 'The template';

/** A template with the name of its OptIn list. */
export interface TemplateWithList {
  template: TemplateRow;
  listName: string | null;
}

// '%' and '_' in a name are searched as themselves.
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function selectWithList(q: Queryable) {
  return q
    .select({ template: templates, listName: contactLists.name })
    .from(templates)
    .leftJoin(contactLists, and(eq(contactLists.id, templates.optInListId), eq(contactLists.accountId, templates.accountId)));
}

/** The templates of the account the viewer sees, by name ignoring case; `limit` 0 answers all of them. */
export async function listTemplates(
  q: Queryable,
  accountId: string,
  viewer: TemplateViewer,
  query: TemplateListQuery,
): Promise<{ rows: TemplateWithList[]; totalCount: number }> {
  const conditions: SQL[] = [eq(templates.accountId, accountId), visibleTemplateCondition(viewer)];
  if (query.type !== undefined) conditions.push(eq(templates.type, query.type));
  if (query.name !== undefined) conditions.push(sql`${templates.name} ilike ${containsPattern(query.name)}`);
  const where = and(...conditions);
  const [total] = await q.select({ n: count() }).from(templates).where(where);
  const ordered = selectWithList(q)
    .where(where)
    .orderBy(asc(sql`lower(${templates.name})`), asc(templates.id))
    .offset(query.offset);
  const rows = query.limit === 0 ? await ordered : await ordered.limit(query.limit);
  return { rows, totalCount: total?.n ?? 0 };
}

/** One template of the account the viewer sees; null for a hidden one, another account's, an unknown or a malformed id. */
export async function findTemplate(q: Queryable, accountId: string, viewer: TemplateViewer, id: string): Promise<TemplateWithList | null> {
  if (!isUuid(id)) return null;
  const [row] = await selectWithList(q)
    .where(and(eq(templates.accountId, accountId), eq(templates.id, id), visibleTemplateCondition(viewer)))
    .limit(1);
  return row ?? null;
}

/**
 * What only the database can say about a body: its media are the account's own files (else 404), every token is a contact field or an attribute of the
 * account (the sending rule: anything else would send as nothing), and the OptIn list is one of the
 * account's, held (KEY SHARE) until the commit so it cannot vanish under the new template.
 */
async function checkAgainstAccount(tx: Tx, accountId: string, input: SaveTemplate): Promise<void> {
  await requireOwnMedia(tx, accountId, input.media);
  const names = await tx.select({ name: accountAttributes.name }).from(accountAttributes).where(eq(accountAttributes.accountId, accountId));
  const unknown = unknownTemplateTokens(input.template, names.map((n) => n.name));
  if (unknown.length > 0) throw new AppError(400, 'validation_failed', `template: ${unknownTokensMessage(unknown)}`);
  if (input.optInListId === null) return;
  const [list] = await tx
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(and(eq(contactLists.accountId, accountId), eq(contactLists.id, input.optInListId)))
    .for('key share');
  if (!list) throw new AppError(400, 'validation_failed', `optInListId: ${TEMPLATE_OPT_IN_LIST_UNKNOWN_MESSAGE}`);
}

const columnsOf = (input: SaveTemplate) => ({
  name: input.name,
  type: input.type,
  template: input.template,
  media: input.media,
  private: input.private,
  optInListId: input.optInListId,
});

async function reload(tx: Tx, accountId: string, viewer: TemplateViewer, id: string): Promise<TemplateWithList> {
  const saved = await findTemplate(tx, accountId, viewer, id);
  if (!saved) throw notFound(TEMPLATE_NOT_FOUND);
  return saved;
}

/** A new template, made by the viewer (an API client's has no maker, so a private one is the administrators'). */
export function createTemplate(db: Db, accountId: string, viewer: TemplateViewer, input: SaveTemplate): Promise<TemplateWithList> {
  return db.transaction(async (tx) => {
    await checkAgainstAccount(tx, accountId, input);
    const id = uuidv7();
    const now = new Date();
    await tx
      .insert(templates)
      .values({ id, accountId, ...columnsOf(input), createdByUserId: templateCreatorId(viewer), createdAt: now, updatedAt: now });
    return reload(tx, accountId, viewer, id);
  });
}

/** Replaces a template the viewer sees; its maker stays. */
export function updateTemplate(db: Db, accountId: string, viewer: TemplateViewer, id: string, input: SaveTemplate): Promise<TemplateWithList> {
  return db.transaction(async (tx) => {
    if (!(await findTemplate(tx, accountId, viewer, id))) throw notFound(TEMPLATE_NOT_FOUND);
    await checkAgainstAccount(tx, accountId, input);
    await tx
      .update(templates)
      .set({ ...columnsOf(input), updatedAt: new Date() })
      .where(and(eq(templates.accountId, accountId), eq(templates.id, id)));
    return reload(tx, accountId, viewer, id);
  });
}

/**
 * Removes a template the viewer sees. Campaigns keep the text they copied and lose the link; messages sent
 * from it keep its id as a record of where their text came from.
 */
export async function removeTemplate(db: Db, accountId: string, viewer: TemplateViewer, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound(TEMPLATE_NOT_FOUND);
  const removed = await db
    .delete(templates)
    .where(and(eq(templates.accountId, accountId), eq(templates.id, id), visibleTemplateCondition(viewer)))
    .returning({ id: templates.id });
  if (removed.length === 0) throw notFound(TEMPLATE_NOT_FOUND);
}

/** Who the messages of a web-hook link go out as: the caller, or for administrators any member who may send. */
async function webhookUser(q: Queryable, accountId: string, viewer: TemplateViewer, asked: string | undefined): Promise<string> {
  const userId = asked ?? (viewer.clientId === undefined ? viewer.userId : undefined);
  if (userId === undefined) throw new AppError(400, 'validation_failed', `user: ${TEMPLATE_WEBHOOK_USER_MESSAGE}`);
  // Administrators and API clients (those who see every template) may sign for another member.
  if (userId !== viewer.userId && !seesEveryTemplate(viewer)) {
    throw new AppError(400, 'validation_failed', `user: ${TEMPLATE_WEBHOOK_OTHER_USER_MESSAGE}`);
  }
  const [member] = await q
    .select({ role: accountMembers.role })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)));
  if (!member || !can(member.role, 'messages.send')) throw new AppError(400, 'validation_failed', `user: ${TEMPLATE_WEBHOOK_USER_MESSAGE}`);
  return userId;
}

async function isAccountGroupOrNumber(q: Queryable, accountId: string, id: string): Promise<boolean> {
  const [group] = await q
    .select({ id: contactGroups.id })
    .from(contactGroups)
    .where(and(eq(contactGroups.accountId, accountId), eq(contactGroups.id, id)));
  return group !== undefined || (await accountPhoneNumberIds(q, accountId, [id])).has(id);
}

/**
 * The web-hook links of a Web template the viewer sees, one per integration, signed for the member the
 * messages go out as and the group (or number) that sends them. `available` is false when the deployment
 * has no secrets key to sign them with.
 */
export async function templateWebhookLinks(
  q: Queryable,
  config: Pick<Config, 'publicUrl' | 'secrets'>,
  accountId: string,
  viewer: TemplateViewer,
  id: string,
  query: TemplateWebhookQuery,
): Promise<TemplateWebhookLinks> {
  const found = await findTemplate(q, accountId, viewer, id);
  if (!found) throw notFound(TEMPLATE_NOT_FOUND);
  if (found.template.type !== 'Web') throw new AppError(400, 'bad_request', TEMPLATE_WEBHOOK_WEB_ONLY_MESSAGE);
  const userId = await webhookUser(q, accountId, viewer, query.user);
  const groupId = query.group ?? null;
  if (groupId !== null && !(await isAccountGroupOrNumber(q, accountId, groupId))) {
    throw new AppError(400, 'validation_failed', `group: ${TEMPLATE_WEBHOOK_GROUP_MESSAGE}`);
  }
  const links: TemplateWebhookLinks['links'] = [];
  for (const integration of templateWebhookIntegrations) {
    const link = await templateWebhookLink(config, integration, { templateId: found.template.id, userId, groupId });
    if (link === null) return { available: false, links: [] };
    links.push({ integration, link });
  }
  return { available: true, links };
}
