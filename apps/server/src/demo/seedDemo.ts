import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { loadAccount, type AccountWithPlan } from '../modules/billing/index.js';
import type { SendActor } from '../modules/messaging/index.js';
import type { Config } from '../platform/config.js';
import { queryRows, type Database, type Db } from '../platform/db/client.js';
import { accountMembers, campaigns, phoneNumbers, users } from '../platform/db/schema/index.js';
import { AppError, notFound } from '../platform/errors.js';
import { coverDemoCost, demoCost } from './demoBalance.js';
import { DEMO_TAG, demoCampaign, demoScripts, demoSpamPhone, demoOptOutKey, demoContacts } from './demoData.js';
import { DemoEngine } from './demoEngine.js';
import { blockSpam, executionSummary, optOut, playScripts, runCampaign, type DemoSender } from './demoMessages.js';
import { ensureAutoResponder, ensureContacts, ensureGroups, ensureList, ensureTemplates } from './demoRecords.js';

export const SIMULATOR_NEEDED_MESSAGE =
  'seed-demo needs the simulator (SIMULATOR=true): the demo texts virtual phones, never real ones.';
export const NO_SIMULATOR_NUMBER_MESSAGE =
  'The account has no active simulator number to text from. Give it one first (Phone Numbers, Add: Buy).';
export const TRIAL_AUTO_RESPONDER_NOTE = 'No auto responder: Trial plans have no auto responders. An account on a paid plan (create-account --plan starter) gets one.';

export interface SeedDemoResult {
  accountId: string;
  accountName: string;
  /** What this run added. */
  added: {
    contacts: number;
    lists: number;
    listMembers: number;
    groups: number;
    templates: number;
    autoResponders: number;
    campaigns: number;
    conversations: number;
    messages: number;
    /** A sandbox top-up made for the demo's messages (USD), or null. */
    topUp: string | null;
  };
  /** The demo as the account now holds it. */
  demo: { contacts: number; countries: string[]; conversations: number; unread: number; closed: number; messages: number };
  campaign: { name: string; status: string; recipients: number; byStatus: Record<string, number>; leftOut: number } | null;
  notes: string[];
  nothingAdded: boolean;
}

/** The number the demo texts from: the account's oldest active number on the deployment's simulator. */
async function simulatorNumber(db: Db, accountId: string): Promise<{ id: string; number: string }> {
  const [row] = await db
    .select({ id: phoneNumbers.id, number: phoneNumbers.number })
    .from(phoneNumbers)
    .where(
      and(
        eq(phoneNumbers.accountId, accountId),
        eq(phoneNumbers.status, 'active'),
        eq(phoneNumbers.carrier, 'simulator'),
        isNull(phoneNumbers.carrierSettingsId),
      ),
    )
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(1);
  if (!row) throw new AppError(422, 'bad_request', NO_SIMULATOR_NUMBER_MESSAGE);
  return row;
}

/** Who the demo acts as: the account's first administrator (sends as them once their e-mail is verified). */
async function administrator(db: Db, accountId: string): Promise<{ viewerId: string; actor: SendActor }> {
  const [admin] = await db
    .select({ id: users.id, verifiedAt: users.emailVerifiedAt })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.role, 'Administrator')))
    .orderBy(asc(accountMembers.createdAt))
    .limit(1);
  if (!admin) throw new AppError(422, 'bad_request', 'The account has no administrator.');
  return { viewerId: admin.id, actor: admin.verifiedAt === null ? { kind: 'system' } : { kind: 'user', userId: admin.id } };
}

async function messagingTotals(db: Db, accountId: string): Promise<{ conversations: number; messages: number }> {
  const [row] = await queryRows<{ conversations: number; messages: number }>(
    db,
    sql`select (select count(*)::int from conversations where account_id = ${accountId}) as conversations,
               (select count(*)::int from messages where account_id = ${accountId}) as messages`,
  );
  return row ?? { conversations: 0, messages: 0 };
}

/** The demo's part of the account: its contacts (tagged), their conversations, unread and closed ones, messages. */
async function demoTotals(db: Db, accountId: string): Promise<SeedDemoResult['demo']> {
  const [row] = await queryRows<Omit<SeedDemoResult['demo'], 'countries'> & { countries: string[] | null }>(
    db,
    sql`with c as (select id, mobile_country from contacts where account_id = ${accountId} and tags @> array[${DEMO_TAG}]::text[]),
             v as (select id, closed_at from conversations where account_id = ${accountId} and contact_id in (select id from c))
        select (select count(*)::int from c) as contacts,
               (select array_agg(distinct mobile_country order by mobile_country) from c) as countries,
               (select count(*)::int from v) as conversations,
               (select count(*)::int from v where closed_at is null and exists (
                  select 1 from messages m where m.conversation_id = v.id and m.read_at is null
                     and (m.direction = 'inbound' or m.status in ('failed', 'undelivered')))) as unread,
               (select count(*)::int from v where closed_at is not null) as closed,
               (select count(*)::int from messages where account_id = ${accountId} and contact_id in (select id from c)) as messages`,
  );
  return { contacts: row?.contacts ?? 0, countries: row?.countries ?? [], conversations: row?.conversations ?? 0, unread: row?.unread ?? 0, closed: row?.closed ?? 0, messages: row?.messages ?? 0 };
}

/** Whether any of the demo's traffic is still to happen (a second run finds none, and starts no engine). */
async function trafficPending(db: Db, accountId: string, contactIds: ReadonlyMap<string, string>): Promise<boolean> {
  const keys = [demoOptOutKey, ...demoScripts.map((s) => s.contact)].map((k) => contactIds.get(k) ?? '');
  const [row] = await queryRows<{ pending: boolean }>(
    db,
    sql`select not exists (select 1 from contacts where account_id = ${accountId} and mobile_number = ${demoSpamPhone.number})
            or not exists (select 1 from campaigns where account_id = ${accountId} and lower(name) = ${demoCampaign.name.toLowerCase()})
            or exists (select 1 from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k(id)
                        where not exists (select 1 from messages m where m.account_id = ${accountId}
                                             and m.contact_id = k.id::uuid and m.job_id is null)) as pending`,
  );
  return row?.pending ?? true;
}

async function campaignOf(db: Db, accountId: string): Promise<SeedDemoResult['campaign']> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select j.id from campaign_jobs j join ${campaigns} c on c.id = j.campaign_id
         where c.account_id = ${accountId} and lower(c.name) = ${demoCampaign.name.toLowerCase()}
         order by j.created_at desc limit 1`,
  );
  if (!row) return null;
  return { name: demoCampaign.name, ...(await executionSummary(db, row.id)) };
}

interface Seeding {
  config: Config;
  database: Database;
  log: Logger;
  found: AccountWithPlan;
  sender: DemoSender;
}

/** The traffic: spam blocked, an opt-out, the campaign, the conversations, on the running engine. */
async function seedTraffic(seeding: Seeding): Promise<{ campaigns: number; topUp: string | null }> {
  const { config, database, found, sender } = seeding;
  const topUp = await coverDemoCost(database.db, config.databaseUrl === null, sender.accountId, demoCost(found.plan));
  const engine = await DemoEngine.start(config, database, seeding.log, sender.accountId);
  try {
    await blockSpam(database.db, engine, sender);
    await optOut(database.db, engine, sender);
    const job = await runCampaign(database.db, engine, sender);
    await playScripts(database.db, engine, sender);
    return { campaigns: job === null ? 0 : 1, topUp };
  } finally {
    await engine.stop();
  }
}

/**
 * Fills the account with a believable demo (docs/decisions.md, "The demo"): contacts, a list, groups,
 * templates, an auto responder where the plan has them, a finished campaign and conversations, all through
 * the product's commands and its simulated network. What the account has already is kept, so a second run
 * adds nothing.
 */
export async function seedDemo(config: Config, database: Database, log: Logger, accountId: string): Promise<SeedDemoResult> {
  const { db } = database;
  if (!config.carriers.simulator) throw new AppError(422, 'bad_request', SIMULATOR_NEEDED_MESSAGE);
  const found = await loadAccount(db, accountId);
  if (!found) throw notFound('The account');
  const number = await simulatorNumber(db, accountId);
  const { viewerId, actor } = await administrator(db, accountId);
  const before = await messagingTotals(db, accountId);
  const demoBefore = await demoTotals(db, accountId);
  const notes: string[] = [];

  const contacts = await ensureContacts(db, accountId);
  const list = await ensureList(db, accountId, contacts.ids);
  const groups = await ensureGroups(db, accountId, number.id);
  const templates = await ensureTemplates(db, accountId, { role: 'Administrator', userId: viewerId });
  let autoResponders = 0;
  if (found.plan.isTrial) notes.push(TRIAL_AUTO_RESPONDER_NOTE);
  else autoResponders = await ensureAutoResponder(db, accountId, viewerId);

  const sender: DemoSender = { accountId, number, actor, viewer: { role: 'Administrator', userId: viewerId }, contactIds: contacts.ids };
  const traffic = (await trafficPending(db, accountId, contacts.ids))
    ? await seedTraffic({ config, database, log, found, sender })
    : { campaigns: 0, topUp: null };
  if (traffic.topUp !== null) notes.push(`Credited $${traffic.topUp} for the demo's messages (a demo credit, not a payment).`);

  const after = await messagingTotals(db, accountId);
  const demo = await demoTotals(db, accountId);
  const added = {
    // The demo's contacts, and the one a phone became by texting in.
    contacts: demo.contacts - demoBefore.contacts,
    lists: list.lists,
    listMembers: list.members,
    groups,
    templates,
    autoResponders,
    campaigns: traffic.campaigns,
    conversations: after.conversations - before.conversations,
    messages: after.messages - before.messages,
    topUp: traffic.topUp,
  };
  const nothingAdded = Object.values(added).every((value) => value === 0 || value === null);
  return {
    accountId,
    accountName: found.account.name,
    added,
    demo,
    campaign: await campaignOf(db, accountId),
    notes,
    nothingAdded,
  };
}

/** The demo's phones, for tests and the docs: every contact's number and the spam phone's. */
export const demoPhones = (): string[] => [...demoContacts.map((c) => c.number), demoSpamPhone.number];
