import { notificationChannelKinds, type NotificationChannel, type NotificationChannelKind, type Role } from '@parley/shared';
import { notFound } from '../../../platform/errors.js';
import { slackToken, type ChannelDeps } from './channelManager.js';
import { presentChannel } from './channelPresenter.js';
import { channelsOfUser, connectedUsers, userContact } from './channelStore.js';
import type { SlackChannelInfo } from './slackClient.js';

export interface ChannelReader {
  accountId: string;
  userId: string;
  role: Role;
}

/**
 * The user's channels of the kinds asked for, connected or not. Administrators see every member who
 * connected each; others only themselves. Slack's channels are asked of Slack only when `slackChannels`.
 */
export async function readChannels(deps: ChannelDeps, reader: ChannelReader, kinds: readonly NotificationChannelKind[], slackChannels: boolean): Promise<NotificationChannel[]> {
  const [own, connected, contact] = await Promise.all([
    channelsOfUser(deps.db, reader.accountId, reader.userId),
    connectedUsers(deps.db, reader.accountId, reader.role === 'Administrator' ? null : reader.userId),
    userContact(deps.db, reader.userId),
  ]);
  if (contact === null) throw notFound('The user');
  const slackRow = own.get('slack') ?? null;
  let available: SlackChannelInfo[] = [];
  if (slackChannels && deps.slack !== null && slackRow !== null) {
    const token = await slackToken(deps.secrets, slackRow);
    // Slack not answering leaves the list empty; the chosen channel is still shown by name.
    if (token !== null) available = await deps.slack.channels(token).catch(() => []);
  }
  return kinds.map((kind) =>
    presentChannel({
      kind,
      row: own.get(kind) ?? null,
      configured: kind !== 'slack' || deps.slack !== null,
      userEmail: contact.email,
      userMobile: contact.mobile,
      connectedUsers: connected,
      availableChannels: kind === 'slack' ? available : [],
    }),
  );
}

export const ALL_CHANNEL_KINDS = notificationChannelKinds;

/** The kind a path's `{channel}` names: a kind, or the id of one of the user's channels. */
export async function kindOf(deps: ChannelDeps, reader: ChannelReader, kindOrId: string): Promise<NotificationChannelKind> {
  if (kindOrId === 'email' || kindOrId === 'sms' || kindOrId === 'slack') return kindOrId;
  const own = await channelsOfUser(deps.db, reader.accountId, reader.userId);
  for (const [kind, row] of own) if (row.id === kindOrId) return kind;
  throw notFound('The notification channel');
}

/** One of the user's channels, connected or not. */
export async function readChannel(deps: ChannelDeps, reader: ChannelReader, kind: NotificationChannelKind, slackChannels: boolean): Promise<NotificationChannel> {
  const [channel] = await readChannels(deps, reader, [kind], slackChannels);
  if (channel === undefined) throw notFound('The notification channel');
  return channel;
}
