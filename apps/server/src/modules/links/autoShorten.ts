import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { SHORT_CODE_LENGTH } from '@parley/shared';
import type { Db, Queryable, Tx } from '../../platform/db/client.js';
import { accounts, linkDomains, links } from '../../platform/db/schema/index.js';
import { isShortUrl, linkNameOf, replaceUrls, shortBaseOf, urlsInText } from './messageUrls.js';
import { knownSharedDomains, sharedDomainById } from './sharedDomains.js';
import { newShortCode } from './shortCodes.js';

/** Names of links made by auto shortening: the destination's host and path, cut to fit a table cell. */
export const AUTO_LINK_NAME_MAX = 60;
/** The code a preview shows for a link the send will make: the real code's length, so the counts agree. */
export const PREVIEW_CODE = 'x'.repeat(SHORT_CODE_LENGTH);
const CODE_ATTEMPTS = 5;

/** 'send' reuses or makes the links; 'preview' makes none and shows PREVIEW_CODE for those it would make. */
export type ShortenMode = 'send' | 'preview';

export interface ShortenedText {
  text: string;
  /** The URLs replaced by short links. */
  shortened: number;
}

/** Where the account's auto short links go: a verified custom domain, or the shared domain (domainId null). */
interface Target {
  domainId: string | null;
  base: string;
}

interface AccountShortening {
  target: Target | null;
  /** Every base whose URLs are already short: the shared domains and the account's custom domains. */
  bases: ReturnType<typeof shortBaseOf>[];
}

/**
 * The account's autoLinkShorten domain: one of its custom domains while verified, else the shared domain (a
 * lapsed custom domain falls back to it rather than sending long URLs, docs/decisions.md). Null: off.
 */
async function accountShortening(q: Queryable, accountId: string, now: Date): Promise<AccountShortening> {
  const [account] = await q
    .select({ domainId: sql<string | null>`${accounts.options}->>'autoLinkShorten'` })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  const domainId = account?.domainId ?? null;
  if (domainId === null || domainId === '') return { target: null, bases: [] };
  const domains = await q.select().from(linkDomains).where(eq(linkDomains.accountId, accountId));
  const bases = [...knownSharedDomains().map((d) => shortBaseOf(d.base)), ...domains.map((d) => shortBaseOf(`https://${d.domain}`))];
  const custom = domains.find((d) => d.id === domainId && d.renewAt !== null && d.renewAt > now);
  if (custom !== undefined) return { target: { domainId: custom.id, base: `https://${custom.domain}` }, bases };
  const shared = sharedDomainById(domainId);
  return { target: shared === null ? null : { domainId: null, base: shared.base }, bases };
}

const onDomain = (domainId: string | null) => (domainId === null ? isNull(links.domainId) : eq(links.domainId, domainId));

/** The account's oldest link to each destination on the domain: destination -> code. */
async function existingCodes(q: Queryable, accountId: string, domainId: string | null, destinations: readonly string[]): Promise<Map<string, string>> {
  const rows = await q
    .select({ destinationUrl: links.destinationUrl, code: links.code })
    .from(links)
    .where(and(eq(links.accountId, accountId), onDomain(domainId), inArray(links.destinationUrl, [...destinations])))
    .orderBy(asc(links.createdAt), asc(links.id));
  const codes = new Map<string, string>();
  for (const row of rows) if (!codes.has(row.destinationUrl)) codes.set(row.destinationUrl, row.code);
  return codes;
}

/**
 * A link to `destination` on the domain: the one another send made meanwhile (two sends of one account
 * take turns on a destination, so they never make two), else a new one named after the destination.
 */
async function linkFor(tx: Tx, accountId: string, domainId: string | null, destination: string): Promise<string> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`auto-link ${accountId} ${destination}`}, 0))`);
  const made = (await existingCodes(tx, accountId, domainId, [destination])).get(destination);
  if (made !== undefined) return made;
  const now = new Date();
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const code = newShortCode();
    const [row] = await tx
      .insert(links)
      .values({ id: uuidv7(), accountId, name: linkNameOf(destination, AUTO_LINK_NAME_MAX), destinationUrl: destination, domainId, code, createdAt: now, updatedAt: now })
      .onConflictDoNothing({ target: links.code })
      .returning({ code: links.code });
    if (row) return row.code;
  }
  throw new Error('no free short code after several draws');
}

/**
 * Auto link shortening (product.md, Account.options.autoLinkShorten): with the option on, each http(s) URL in
 * the text that is not already a short link of this deployment or the account's domains is replaced by a
 * short link on the chosen domain, reusing the account's link to the same destination there. Run on the text
 * before it is rendered per recipient, so a send or an execution shortens once. With the option off, or no
 * URL, the text comes back as it is.
 */
export async function shortenLinks(tx: Tx, accountId: string, text: string, mode: ShortenMode = 'send', now = new Date()): Promise<ShortenedText> {
  const found = urlsInText(text);
  if (found.length === 0) return { text, shortened: 0 };
  const { target, bases } = await accountShortening(tx, accountId, now);
  if (target === null) return { text, shortened: 0 };
  const long = found.filter((f) => !isShortUrl(f.url, bases));
  if (long.length === 0) return { text, shortened: 0 };
  const destinations = [...new Set(long.map((f) => f.url))];
  const codes = await existingCodes(tx, accountId, target.domainId, destinations);
  const short = new Map<string, string>();
  for (const destination of destinations) {
    const code = codes.get(destination) ?? (mode === 'preview' ? PREVIEW_CODE : await linkFor(tx, accountId, target.domainId, destination));
    short.set(destination, `${target.base}/${code}`);
  }
  return { text: replaceUrls(text, long, short), shortened: long.length };
}

/**
 * Whether a domain may carry the account's auto short links: the deployment's shared domain (`sharedId`) or
 * one of the account's custom domains, verified now.
 */
export async function isAutoLinkDomain(q: Queryable, accountId: string, domainId: string, sharedId: string, now = new Date()): Promise<boolean> {
  if (domainId === sharedId) return true;
  const [domain] = await q
    .select({ renewAt: linkDomains.renewAt })
    .from(linkDomains)
    .where(and(eq(linkDomains.accountId, accountId), eq(linkDomains.id, domainId)))
    .limit(1);
  return domain?.renewAt != null && domain.renewAt > now;
}

/** The editor's preview: the text as a send would shorten it, in a transaction of its own; makes no link. */
export const previewShortLinks = (db: Db, accountId: string, text: string): Promise<ShortenedText> =>
  db.transaction((tx) => shortenLinks(tx, accountId, text, 'preview'));
