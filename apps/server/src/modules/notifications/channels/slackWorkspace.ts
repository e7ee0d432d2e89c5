import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { SlackWorkspace } from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { AppError } from '../../../platform/errors.js';
import { notificationChannels } from '../../../platform/db/schema/index.js';
import { slackToken, type ChannelDeps } from './channelManager.js';

/*
 * The account's Slack workspaces as the Slack integration page shows them (docs/integrations.md, "Slack"):
 * a workspace is installed while a person's Slack notification channel holds its bot token.
 */

const installed = (accountId: string) => and(eq(notificationChannels.accountId, accountId), eq(notificationChannels.channel, 'slack'), isNotNull(notificationChannels.slackTeamId));

/** How many Slack channels of the account hold a workspace's install. */
export async function countSlackInstalls(q: Queryable, accountId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(notificationChannels).where(installed(accountId));
  return row?.n ?? 0;
}

/** The account's workspaces, each with the number of people's channels on it, by name. */
export async function slackWorkspaces(q: Queryable, accountId: string): Promise<SlackWorkspace[]> {
  const rows = await q
    .select({ teamId: notificationChannels.slackTeamId, teamName: notificationChannels.slackTeamName, n: count() })
    .from(notificationChannels)
    .where(installed(accountId))
    .groupBy(notificationChannels.slackTeamId, notificationChannels.slackTeamName);
  return rows
    .map((row) => ({ teamId: row.teamId ?? '', teamName: row.teamName ?? row.teamId ?? '', channels: row.n }))
    .sort((a, b) => a.teamName.localeCompare(b.teamName));
}

/**
 * Disconnects Slack from the account: each Slack channel's bot token is revoked at Slack (auth.revoke; a
 * token Slack no longer honours counts as revoked) and the channel removed, its waiting posts with it. A
 * channel whose token cannot be opened (another secrets key) is removed all the same: Slack is told when
 * it can be.
 */
export async function disconnectSlack(deps: ChannelDeps, accountId: string): Promise<{ removed: number; revoked: number }> {
  const rows = await deps.db.select().from(notificationChannels).where(and(eq(notificationChannels.accountId, accountId), eq(notificationChannels.channel, 'slack')));
  let revoked = 0;
  for (const row of rows) {
    const token = await slackToken(deps.secrets, row).catch(() => null);
    if (token !== null && deps.slack !== null) {
      const slack = deps.slack;
      // Slack down or refusing otherwise: this channel stays (the ones before it are gone), and trying again finishes.
      await slack.revoke(token).catch((error: unknown) => {
        throw new AppError(502, 'internal_error', `Slack could not revoke the token: ${error instanceof Error ? error.message : String(error)}`);
      });
      revoked += 1;
    }
    await deps.db.delete(notificationChannels).where(and(eq(notificationChannels.id, row.id), eq(notificationChannels.accountId, accountId)));
  }
  return { removed: rows.length, revoked };
}
