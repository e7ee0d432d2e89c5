import { NOTIFICATION_CHANNEL_NAMES, type NotificationChannel, type NotificationChannelKind } from '@parley/shared';
import type { NotificationChannelRow } from '../../../platform/db/schema/index.js';
import type { ConnectedUser } from './channelStore.js';
import type { SlackChannelInfo } from './slackClient.js';

export interface ChannelView {
  kind: NotificationChannelKind;
  row: NotificationChannelRow | null;
  configured: boolean;
  /** Where it goes for this user: their address, their mobile (null without one). */
  userEmail: string;
  userMobile: string | null;
  connectedUsers: readonly ConnectedUser[];
  /** Slack: the channels the bot lists (empty until the app is added, or when Slack does not answer). */
  availableChannels: readonly SlackChannelInfo[];
}

function destinationOf(view: ChannelView): string | undefined {
  switch (view.kind) {
    case 'email':
      return view.userEmail;
    case 'sms':
      return view.userMobile ?? undefined;
    case 'slack': {
      const row = view.row;
      if (row?.slackTeamName == null) return undefined;
      return row.slackChannelName === null ? row.slackTeamName : `${row.slackTeamName} #${row.slackChannelName}`;
    }
  }
}

/** A channel as the API shows it (spec: id, name, channel, groups, options.availableChannels, connectedUsers). */
export function presentChannel(view: ChannelView): NotificationChannel {
  const destination = destinationOf(view);
  return {
    ...(view.row === null ? {} : { id: view.row.id, updated: { at: view.row.updatedAt.toISOString() } }),
    name: NOTIFICATION_CHANNEL_NAMES[view.kind],
    channel: view.kind,
    connected: view.row !== null,
    configured: view.configured,
    ...(destination === undefined ? {} : { destination }),
    groups: view.row?.groups ?? [],
    options: { availableChannels: view.availableChannels.map((c) => ({ id: c.id, name: c.name })) },
    connectedUsers: view.connectedUsers.filter((u) => u.channel === view.kind).map((u) => ({ id: u.id, name: u.name, email: u.email })),
  };
}
