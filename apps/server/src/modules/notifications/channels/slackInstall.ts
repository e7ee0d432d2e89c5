import { and, eq } from 'drizzle-orm';
import { SLACK_NOT_CONFIGURED_MESSAGE } from '@parley/shared';
import { accountMembers } from '../../../platform/db/schema/index.js';
import { AppError } from '../../../platform/errors.js';
import { storeSlackInstall, type ChannelDeps } from './channelManager.js';
import { SLACK_SCOPES } from './slackClient.js';
import { openSlackState, signSlackState } from './slackSigning.js';
import type { SlackConfig } from '../../../platform/config.js';

export const SLACK_STATE_INVALID_MESSAGE = 'The Slack authorization expired or was not asked for here; add Parley to Slack again';

export const slackRedirectUri = (publicUrl: string): string => `${publicUrl}/v1/notificationchannels/slack/callback`;

/** Where "Add to Slack" sends the user: Slack's OAuth v2 page with our client id, scopes and a signed state. */
export async function slackAuthorizeUrl(deps: ChannelDeps, slack: SlackConfig | null, publicUrl: string, accountId: string, userId: string): Promise<string> {
  if (slack === null || deps.slack === null) throw new AppError(409, 'conflict', SLACK_NOT_CONFIGURED_MESSAGE);
  const url = new URL(slack.oauthUrl);
  url.searchParams.set('client_id', slack.clientId);
  url.searchParams.set('scope', SLACK_SCOPES.join(','));
  url.searchParams.set('redirect_uri', slackRedirectUri(publicUrl));
  url.searchParams.set('state', await signSlackState(deps.secrets, accountId, userId));
  return url.toString();
}

/**
 * Slack's redirect back: the state must be ours, unexpired, for a user still in the account; then the code
 * is traded for the bot token (oauth.v2.access), kept sealed on the user's Slack channel.
 */
export async function completeSlackInstall(deps: ChannelDeps, publicUrl: string, input: { code: string; state: string }): Promise<{ accountId: string }> {
  if (deps.slack === null) throw new AppError(409, 'conflict', SLACK_NOT_CONFIGURED_MESSAGE);
  const asked = await openSlackState(deps.secrets, input.state);
  if (asked === null) throw new AppError(400, 'bad_request', SLACK_STATE_INVALID_MESSAGE);
  const [member] = await deps.db
    .select({ role: accountMembers.role })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, asked.accountId), eq(accountMembers.userId, asked.userId)))
    .limit(1);
  if (member === undefined) throw new AppError(400, 'bad_request', SLACK_STATE_INVALID_MESSAGE);
  const install = await deps.slack.exchangeCode(input.code, slackRedirectUri(publicUrl));
  await storeSlackInstall(deps, asked.accountId, asked.userId, install);
  return { accountId: asked.accountId };
}
