import { and, asc, count, eq, getTableColumns, ilike, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { DOMAIN_NOT_VERIFIED_MESSAGE, type ListQuery, type SaveLink } from '@parley/shared';
import type { Db, Queryable, Tx } from '../../platform/db/client.js';
import { accounts, linkDomains, links, type LinkRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/db/ids.js';
import { newShortCode } from './shortCodes.js';

export const LINK_NOT_FOUND = 'The link';
const CODE_ATTEMPTS = 5;

/** A LIKE pattern matching `text` literally anywhere. */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A link with the name of its custom domain (null: on the shared domain). */
export type LinkView = LinkRow & { domainName: string | null };

const viewColumns = { ...getTableColumns(links), domainName: linkDomains.domain };

export async function listLinks(
  q: Queryable,
  accountId: string,
  page: ListQuery & { name?: string | undefined },
): Promise<{ rows: LinkView[]; totalCount: number }> {
  const conditions: SQL[] = [eq(links.accountId, accountId)];
  if (page.name !== undefined && page.name !== '') conditions.push(ilike(links.name, containing(page.name)));
  const where = and(...conditions);
  const [total] = await q.select({ n: count() }).from(links).where(where);
  const rows = await q
    .select(viewColumns)
    .from(links)
    .leftJoin(linkDomains, eq(linkDomains.id, links.domainId))
    .where(where)
    .orderBy(asc(links.createdAt), asc(links.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

/** One link of the account; null for another account's, an unknown or a malformed id. */
export async function findLink(q: Queryable, accountId: string, id: string): Promise<LinkView | null> {
  if (!isUuid(id)) return null;
  const [row] = await q
    .select(viewColumns)
    .from(links)
    .leftJoin(linkDomains, eq(linkDomains.id, links.domainId))
    .where(and(eq(links.accountId, accountId), eq(links.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * The domain_id a link on `domainId` keeps: null for the shared domain; else one of the account's
 * custom domains, verified now (docs/links.md). Another account's domain is not found.
 */
async function domainOfLink(tx: Tx, accountId: string, domainId: string, sharedId: string): Promise<string | null> {
  if (domainId === sharedId) return null;
  const [domain] = await tx
    .select({ id: linkDomains.id, renewAt: linkDomains.renewAt })
    .from(linkDomains)
    .where(and(eq(linkDomains.accountId, accountId), eq(linkDomains.id, domainId)))
    .limit(1);
  if (!domain) throw notFound('The domain');
  if (domain.renewAt === null || domain.renewAt <= new Date()) throw new AppError(400, 'validation_failed', `domain: ${DOMAIN_NOT_VERIFIED_MESSAGE}`);
  return domain.id;
}

/** Enabling a tracked link turns contact tracking on for the account (product.md, "Contact tracking"). */
async function turnTrackingOn(tx: Tx, accountId: string): Promise<void> {
  await tx
    .update(accounts)
    .set({ options: sql`${accounts.options} || '{"contactTracking":true}'::jsonb` })
    .where(eq(accounts.id, accountId));
}

/**
 * Turning the account's contact tracking off turns it off for all its links (product.md, "Contact
 * tracking"); codes already sent keep redirecting and counting.
 */
export async function turnTrackingOffForAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.update(links).set({ contactTracking: false }).where(and(eq(links.accountId, accountId), eq(links.contactTracking, true)));
}

export interface LinkAuthor {
  accountId: string;
  userId: string | null;
  sharedDomainId: string;
}

/** A new link with a fresh code; a code already taken (about one in 10^12 draws) is drawn again. */
export function createLink(db: Db, author: LinkAuthor, input: SaveLink): Promise<LinkView> {
  return db.transaction(async (tx) => {
    const domainId = await domainOfLink(tx, author.accountId, input.domain.id, author.sharedDomainId);
    if (input.contactTracking) await turnTrackingOn(tx, author.accountId);
    const now = new Date();
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const [row] = await tx
        .insert(links)
        .values({
          id: uuidv7(),
          accountId: author.accountId,
          name: input.name,
          destinationUrl: input.destinationUrl,
          domainId,
          code: newShortCode(),
          contactTracking: input.contactTracking,
          createdByUserId: author.userId,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: links.code })
        .returning();
      if (row) return (await findLink(tx, author.accountId, row.id)) ?? { ...row, domainName: null };
    }
    throw new Error('no free short code after several draws');
  });
}

/** Replaces a link's name, destination, domain and tracking; its code stays, so sent links keep working. */
export function updateLink(db: Db, accountId: string, sharedDomainId: string, id: string, input: SaveLink): Promise<LinkView> {
  return db.transaction(async (tx) => {
    if (!(await findLink(tx, accountId, id))) throw notFound(LINK_NOT_FOUND);
    const domainId = await domainOfLink(tx, accountId, input.domain.id, sharedDomainId);
    if (input.contactTracking) await turnTrackingOn(tx, accountId);
    const [row] = await tx
      .update(links)
      .set({ name: input.name, destinationUrl: input.destinationUrl, domainId, contactTracking: input.contactTracking, updatedAt: new Date() })
      .where(and(eq(links.accountId, accountId), eq(links.id, id)))
      .returning();
    const view = row ? await findLink(tx, accountId, row.id) : null;
    if (!view) throw notFound(LINK_NOT_FOUND);
    return view;
  });
}

/** Removes a link; answers its code so the redirect cache can forget it. */
export async function removeLink(db: Db, accountId: string, id: string): Promise<string> {
  if (!isUuid(id)) throw notFound(LINK_NOT_FOUND);
  const [removed] = await db.delete(links).where(and(eq(links.accountId, accountId), eq(links.id, id))).returning({ code: links.code });
  if (!removed) throw notFound(LINK_NOT_FOUND);
  return removed.code;
}
