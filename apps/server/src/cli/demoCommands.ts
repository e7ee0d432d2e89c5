import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../platform/db/client.js';
import { accountMembers, accounts } from '../platform/db/schema/index.js';
import { seedDemo, type SeedDemoResult } from '../demo/seedDemo.js';
import { findUserByEmail } from '../modules/identity/index.js';
import { CliError, type CliCommand } from './command.js';
import { refusalsAsCliErrors, stderrLogger, textFlag, type Flags } from './options.js';

type Target = { accountId: string } | { owner: string };

function targetOf(flags: Flags): Target {
  const account = textFlag(flags, 'account');
  const owner = textFlag(flags, 'owner');
  if (account !== undefined && owner !== undefined) throw new CliError('invalid_arguments', 'Give --account or --owner, not both.', 2);
  if (owner !== undefined && owner.trim() !== '') return { owner };
  const id = z.uuid().safeParse(account);
  if (!id.success) throw new CliError('invalid_arguments', 'Give the account: --account <uuid>, or --owner <email> for their only account.', 2);
  return { accountId: id.data };
}

/** The only open account the user belongs to. */
async function ownersAccount(db: Db, email: string): Promise<string> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError('unknown_owner', `No user has the email ${email.trim()}.`);
  const held = await db
    .select({ id: accounts.id, name: accounts.name })
    .from(accountMembers)
    .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
    .where(and(eq(accountMembers.userId, user.id), eq(accounts.status, 'active')))
    .orderBy(asc(accounts.createdAt));
  const [only] = held;
  if (only === undefined) throw new CliError('no_account', `${user.email} has no account: create one with create-account.`);
  if (held.length > 1) {
    const listed = held.map((a) => `${a.id} (${a.name})`).join(', ');
    throw new CliError('several_accounts', `${user.email} has ${String(held.length)} accounts; name one with --account: ${listed}.`, 2);
  }
  return only.id;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${String(n)} ${n === 1 ? one : many}`;

function addedLine({ added }: SeedDemoResult): string {
  const parts = [
    plural(added.contacts, 'contact'),
    `${plural(added.lists, 'list')} (${plural(added.listMembers, 'member')})`,
    plural(added.groups, 'group'),
    plural(added.templates, 'template'),
    plural(added.autoResponders, 'auto responder'),
    plural(added.campaigns, 'campaign'),
    plural(added.conversations, 'conversation'),
    plural(added.messages, 'message'),
  ];
  return `  added: ${parts.join(', ')}`;
}

function demoLine({ demo }: SeedDemoResult): string {
  return `  the demo: ${plural(demo.contacts, 'contact')} in ${demo.countries.join(', ')}; ${plural(demo.conversations, 'conversation')} (${String(demo.unread)} unread, ${String(demo.closed)} closed) with ${plural(demo.messages, 'message')}`;
}

function campaignLine(campaign: NonNullable<SeedDemoResult['campaign']>): string {
  const statuses = Object.entries(campaign.byStatus).map(([status, n]) => `${String(n)} ${status}`);
  return `  campaign "${campaign.name}" (${campaign.status}): ${plural(campaign.recipients, 'recipient')}: ${[...statuses, `${String(campaign.leftOut)} left out`].join(', ')}`;
}

function summary(result: SeedDemoResult): string {
  const lines = result.nothingAdded
    ? [`The demo is already in "${result.accountName}" (${result.accountId}): nothing was added.`]
    : [`Demo data added to "${result.accountName}" (${result.accountId}):`, addedLine(result)];
  lines.push(demoLine(result));
  if (result.campaign !== null) lines.push(campaignLine(result.campaign));
  lines.push(...result.notes.map((note) => `  ${note}`));
  if (!result.nothingAdded) lines.push("Start the server (npm start), sign in as the account's administrator and open Conversations.");
  return lines.join('\n');
}

export const seedDemoCommand: CliCommand = {
  name: 'seed-demo',
  summary: 'Fill an account with a believable demo (contacts, conversations, a campaign ...) through the simulator; a second run adds nothing',
  usage: 'seed-demo --account ID | --owner E',
  async run(config, flags, _positionals, databases) {
    const target = targetOf(flags);
    const result = await databases.withDatabase(async (database) => {
      const accountId = 'accountId' in target ? target.accountId : await ownersAccount(database.db, target.owner);
      return refusalsAsCliErrors(() => seedDemo(config, database, stderrLogger(), accountId));
    });
    return {
      json: {
        ok: true,
        accountId: result.accountId,
        alreadySeeded: result.nothingAdded,
        added: result.added,
        demo: result.demo,
        campaign: result.campaign,
        notes: result.notes,
      },
      text: summary(result),
    };
  },
};
