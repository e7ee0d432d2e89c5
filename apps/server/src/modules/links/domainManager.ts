import { and, asc, count, eq, gt, ne } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { DOMAIN_IN_USE_MESSAGE, DOMAIN_TAKEN_MESSAGE, DOMAIN_VERIFIED_ELSEWHERE_MESSAGE, type ListQuery } from '@parley/shared';
import type { Db, Queryable } from '../../platform/db/client.js';
import { linkDomains, links, type LinkDomainRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/db/ids.js';
import { isForeignKeyViolation } from '../../platform/db/sqlErrors.js';

export const DOMAIN_NOT_FOUND = 'The domain';
/** A check that passes keeps the domain verified this long; the daily re-check moves it on (docs/links.md). */
export const VERIFIED_FOR_MS = 7 * 24 * 3600 * 1000;

export async function listDomains(q: Queryable, accountId: string, page: ListQuery): Promise<{ rows: LinkDomainRow[]; totalCount: number }> {
  const where = eq(linkDomains.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(linkDomains).where(where);
  const rows = await q.select().from(linkDomains).where(where).orderBy(asc(linkDomains.createdAt), asc(linkDomains.id)).limit(page.limit).offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function findDomain(q: Queryable, accountId: string, by: { id?: string | undefined; domain?: string | undefined }): Promise<LinkDomainRow | null> {
  if (by.id !== undefined && !isUuid(by.id)) return null;
  const match = by.id !== undefined ? eq(linkDomains.id, by.id) : eq(linkDomains.domain, (by.domain ?? '').toLowerCase());
  const [row] = await q.select().from(linkDomains).where(and(eq(linkDomains.accountId, accountId), match)).limit(1);
  return row ?? null;
}

/** Adds a domain, not yet verified. `reserved`: the deployment's own hosts, which no account may add. */
export async function addDomain(db: Db, accountId: string, domain: string, reserved: readonly string[]): Promise<LinkDomainRow> {
  if (reserved.includes(domain)) throw new AppError(409, 'conflict', DOMAIN_TAKEN_MESSAGE);
  const [row] = await db
    .insert(linkDomains)
    .values({ id: uuidv7(), accountId, domain, createdAt: new Date() })
    .onConflictDoNothing({ target: [linkDomains.accountId, linkDomains.domain] })
    .returning();
  if (!row) throw new AppError(409, 'conflict', DOMAIN_TAKEN_MESSAGE);
  return row;
}

/**
 * Records a check's outcome. A pass sets renewAt a week ahead, unless another account holds the domain
 * verified (the first to prove it keeps it); a failure leaves renewAt, so a passing check's week runs out
 * rather than a passing DNS hiccup unverifying a domain in use.
 */
export async function recordCheck(db: Db, row: LinkDomainRow, passed: boolean, now = new Date()): Promise<LinkDomainRow> {
  if (passed) {
    const [elsewhere] = await db
      .select({ id: linkDomains.id })
      .from(linkDomains)
      .where(and(eq(linkDomains.domain, row.domain), ne(linkDomains.accountId, row.accountId), gt(linkDomains.renewAt, now)))
      .limit(1);
    if (elsewhere) throw new AppError(409, 'conflict', DOMAIN_VERIFIED_ELSEWHERE_MESSAGE);
  }
  const [updated] = await db
    .update(linkDomains)
    .set(passed ? { renewAt: new Date(now.getTime() + VERIFIED_FOR_MS), checkedAt: now } : { checkedAt: now })
    .where(and(eq(linkDomains.accountId, row.accountId), eq(linkDomains.id, row.id)))
    .returning();
  if (!updated) throw notFound(DOMAIN_NOT_FOUND);
  return updated;
}

/** Removes a domain no link uses; answers its name so the short hosts forget it. */
export async function removeDomain(db: Db, accountId: string, id: string): Promise<string> {
  if (!isUuid(id)) throw notFound(DOMAIN_NOT_FOUND);
  const [used] = await db.select({ id: links.id }).from(links).where(and(eq(links.accountId, accountId), eq(links.domainId, id))).limit(1);
  if (used) throw new AppError(409, 'conflict', DOMAIN_IN_USE_MESSAGE);
  try {
    const [removed] = await db.delete(linkDomains).where(and(eq(linkDomains.accountId, accountId), eq(linkDomains.id, id))).returning({ domain: linkDomains.domain });
    if (!removed) throw notFound(DOMAIN_NOT_FOUND);
    return removed.domain;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new AppError(409, 'conflict', DOMAIN_IN_USE_MESSAGE);
    throw error;
  }
}
