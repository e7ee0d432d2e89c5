import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { saveCampaignSchema, updateContactSchema } from '@parley/shared';
import { createCampaign } from '../modules/campaigns/index.js';
import { executeCampaign } from '../modules/campaigns/index.js';
import { runCampaignExecution } from '../modules/campaigns/index.js';
import { blockContact, updateContact } from '../modules/contacts/index.js';
import { sendMessages, type SendActor } from '../modules/messaging/index.js';
import { queryRows, type Db } from '../platform/db/client.js';
import { campaignJobs, campaigns, contactGroups, contacts, conversations, messages, type CampaignJobRow } from '../platform/db/schema/index.js';
import { WHOLE_ACCOUNT } from '../modules/messaging/index.js';
import type { TemplateViewer } from '../modules/templates/index.js';
import { approveHeldMessages } from '../modules/messaging/index.js';
import { assignConversationGroup, closeConversation, markConversationRead } from '../modules/conversations/index.js';
import { DEMO_TAG, demoCampaign, demoContacts, demoOptOutKey, demoScripts, demoSpamPhone, type DemoScript } from './demoData.js';
import type { DemoEngine } from './demoEngine.js';

/*
 * The demo's traffic, through the product's own paths: virtual phones text the account's simulator number
 * (the simulator hands their messages to the engine), the business answers with sendMessages, the campaign
 * is executed and sent as the worker would, and the dispatcher and the simulator's receipts move every
 * message to where the simulated network leaves it.
 */

export interface DemoSender {
  accountId: string;
  number: { id: string; number: string };
  /** The account's administrator when their e-mail is verified, else Parley itself. */
  actor: SendActor;
  viewer: TemplateViewer;
  contactIds: ReadonlyMap<string, string>;
}

const numberOf = (key: string): string => demoContacts.find((c) => c.key === key)?.number ?? '';

async function contactByNumber(db: Db, accountId: string, number: string): Promise<string | null> {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), eq(contacts.mobileNumber, number)))
    .limit(1);
  return row?.id ?? null;
}

async function hasReceivedFrom(db: Db, accountId: string, contactId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.contactId, contactId), eq(messages.direction, 'inbound')))
    .limit(1);
  return row !== undefined;
}

/** The contact's open conversation. */
async function openConversationOf(db: Db, accountId: string, contactId: string): Promise<string | null> {
  const [conversation] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.accountId, accountId), eq(conversations.contactId, contactId), isNull(conversations.closedAt)))
    .limit(1);
  return conversation?.id ?? null;
}

/** The team read the contact's open conversation, and closed it when done with it. */
async function leaveConversation(db: Db, accountId: string, contactId: string, end: 'read' | 'closed'): Promise<void> {
  const id = await openConversationOf(db, accountId, contactId);
  if (id === null) return;
  await markConversationRead(db, accountId, WHOLE_ACCOUNT, id, true);
  if (end === 'closed') await closeConversation(db, accountId, WHOLE_ACCOUNT, id);
}

/** A phone texts spam; the team blocks it from that message and closes the conversation. Answers whether it ran now. */
export async function blockSpam(db: Db, engine: DemoEngine, sender: DemoSender): Promise<boolean> {
  if ((await contactByNumber(db, sender.accountId, demoSpamPhone.number)) !== null) return false;
  const expected = (await engine.received()) + 1;
  await engine.textFrom(demoSpamPhone.number, sender.number.number, demoSpamPhone.text);
  await engine.settle(expected);
  const contactId = await contactByNumber(db, sender.accountId, demoSpamPhone.number);
  if (contactId === null) throw new Error('the spam phone did not become a contact');
  const [message] = await db.select({ id: messages.id }).from(messages).where(eq(messages.contactId, contactId)).limit(1);
  await updateContact(db, sender.accountId, contactId, updateContactSchema.parse({ tags: [DEMO_TAG] }));
  await blockContact(db, sender.accountId, contactId, { messageId: message?.id });
  await leaveConversation(db, sender.accountId, contactId, 'closed');
  return true;
}

/** A customer texts STOP (the compliance keyword: opted out, confirmation sent), so the campaign leaves them out. */
export async function optOut(db: Db, engine: DemoEngine, sender: DemoSender): Promise<boolean> {
  const contactId = sender.contactIds.get(demoOptOutKey) ?? '';
  if (await hasReceivedFrom(db, sender.accountId, contactId)) return false;
  const expected = (await engine.received()) + 1;
  await engine.textFrom(numberOf(demoOptOutKey), sender.number.number, 'STOP');
  await engine.settle(expected);
  await leaveConversation(db, sender.accountId, contactId, 'read');
  return true;
}

/**
 * The campaign, executed and sent as the worker would (its batches inline here), its messages approved past
 * the recipients' quiet hours as an administrator would, then delivered (or not) by the simulated network.
 * Answers the execution, or null when the campaign was there already.
 */
export async function runCampaign(db: Db, engine: DemoEngine, sender: DemoSender): Promise<CampaignJobRow | null> {
  const [found] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.accountId, sender.accountId), sql`lower(${campaigns.name}) = ${demoCampaign.name.toLowerCase()}`));
  if (found) return null;
  const userId = sender.actor.kind === 'user' ? sender.actor.userId : null;
  const campaign = await createCampaign(
    db,
    sender.accountId,
    sender.viewer,
    userId,
    saveCampaignSchema.parse({
      name: demoCampaign.name,
      description: demoCampaign.description,
      messagingType: 'marketing',
      phoneNumberFilter: { group: sender.number.id },
      trigger: { code: 'M' },
      filters: { tags: [demoCampaign.tag, DEMO_TAG] },
      template: demoCampaign.template,
    }),
  );
  // The worker's job, run inline: the execution is sent before executeCampaign answers.
  const failures: unknown[] = [];
  const job = await executeCampaign(
    db,
    async (jobId) => {
      await runCampaignExecution(db, jobId);
    },
    { accountId: sender.accountId, campaignId: campaign.id, userId },
    (error) => failures.push(error),
  );
  if (failures.length > 0) throw new Error('the demo campaign could not be sent', { cause: failures[0] });
  const held = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.jobId, job.id), eq(messages.status, 'queued'), gt(messages.sendAfter, new Date())));
  if (held.length > 0) await approveHeldMessages(db, sender.accountId, held.map((m) => m.id));
  await engine.settle(await engine.received());
  return job;
}

/** Whether the script's contact has any message outside the campaign: then it was played already. */
async function played(db: Db, accountId: string, contactId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.contactId, contactId), isNull(messages.jobId)))
    .limit(1);
  return row !== undefined;
}

async function playTurn(db: Db, engine: DemoEngine, sender: DemoSender, script: DemoScript, turn: number): Promise<number> {
  const step = script.turns[turn];
  if (step === undefined) return 0;
  if (step.from === 'contact') {
    await engine.textFrom(numberOf(script.contact), sender.number.number, step.text);
    return 1;
  }
  // One recipient, the sender's say-so to send now whatever the hour there (a reply within a day goes anyway).
  await sendMessages(db, {
    accountId: sender.accountId,
    actor: sender.actor,
    contactIds: [sender.contactIds.get(script.contact) ?? ''],
    template: step.text,
    phoneNumberFilter: { group: sender.number.id },
    sendNow: true,
  });
  return 0;
}

/** Leaves the conversation as the script says: with its group, read by the team, closed, or waiting unread. */
async function finish(db: Db, sender: DemoSender, script: DemoScript): Promise<void> {
  const contactId = sender.contactIds.get(script.contact) ?? '';
  const id = await openConversationOf(db, sender.accountId, contactId);
  if (id === null) return;
  if (script.group !== undefined) {
    const [group] = await db
      .select({ id: contactGroups.id })
      .from(contactGroups)
      .where(and(eq(contactGroups.accountId, sender.accountId), eq(contactGroups.name, script.group)));
    if (group) await assignConversationGroup(db, sender.accountId, WHOLE_ACCOUNT, id, group.id);
  }
  if (script.end !== 'unread') await leaveConversation(db, sender.accountId, contactId, script.end);
}

/** The conversations, turn by turn across all of them (each turn waits for the network); answers how many were played. */
export async function playScripts(db: Db, engine: DemoEngine, sender: DemoSender): Promise<number> {
  const pending: DemoScript[] = [];
  for (const script of demoScripts) {
    if (!(await played(db, sender.accountId, sender.contactIds.get(script.contact) ?? ''))) pending.push(script);
  }
  const turns = Math.max(0, ...pending.map((s) => s.turns.length));
  for (let turn = 0; turn < turns; turn++) {
    let expected = await engine.received();
    for (const script of pending) expected += await playTurn(db, engine, sender, script, turn);
    await engine.settle(expected);
  }
  for (const script of pending) await finish(db, sender, script);
  return pending.length;
}

/** What the execution's report counts: its recipients, its messages by status, and the recipients left out. */
export async function executionSummary(
  db: Db,
  jobId: string,
): Promise<{ status: string; recipients: number; byStatus: Record<string, number>; leftOut: number }> {
  const [job] = await db.select().from(campaignJobs).where(eq(campaignJobs.id, jobId));
  const rows = await queryRows<{ status: string; n: number }>(
    db,
    sql`select status, count(*)::int as n from messages where job_id = ${jobId} group by status order by status`,
  );
  return {
    status: job?.status ?? 'unknown',
    recipients: job?.recipients ?? 0,
    byStatus: Object.fromEntries(rows.map((r) => [r.status, r.n])),
    leftOut: job?.invalid.length ?? 0,
  };
}
