import { z } from 'zod';
import { PROPERTIES_SAVED_MESSAGE } from './integrations.js';
import { recordResponse } from './pagination.js';

/**
 * Notification channels (docs/notifications.md, "Channels"): a user's own way of hearing about the
 * account's conversations, by e-mail, SMS to their mobile or a Slack channel, for the groups they choose.
 */

export const notificationChannelKinds = ['email', 'sms', 'slack'] as const;
export type NotificationChannelKind = (typeof notificationChannelKinds)[number];

export const NOTIFICATION_CHANNEL_NAMES: Readonly<Record<NotificationChannelKind, string>> = { email: 'Email', sms: 'SMS', slack: 'Slack' };

/** The spec's texts (error catalogue, "Notification properties"); the saved one closes after 3000 ms. */
export const CHANNEL_SAVED_MESSAGE = PROPERTIES_SAVED_MESSAGE;
export const CHANNEL_NOT_SAVED_MESSAGE = 'Properties could not be saved';
export const CHANNEL_SAVED_CLOSE_MS = 3000;

export const CHANNEL_NEEDS_MOBILE_MESSAGE = 'Add your mobile number to your profile to be notified by SMS';
export const SLACK_NOT_CONFIGURED_MESSAGE = 'Slack is not configured on this server';
export const SLACK_NOT_AUTHORIZED_MESSAGE = 'Add Parley to your Slack workspace first';
export const SLACK_CHANNEL_UNKNOWN_MESSAGE = 'Choose one of the Slack channels listed';

const groupEntry = z
  .object({
    id: z.uuid({ message: 'Not a group id' }),
    settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  })
  .meta({ id: 'NotificationChannelGroup' });

/** PUT body: the groups whose conversations the user hears about (none: every one they see), and for Slack the channel. */
export const saveNotificationChannelSchema = z
  .object({
    groups: z
      .array(groupEntry)
      .max(100)
      .default([])
      .transform((groups) => [...new Map(groups.map((g) => [g.id, g])).values()]),
    /** Slack: the id of the channel new messages are posted to (one of options.availableChannels). */
    channelId: z.string().trim().min(1).max(40).optional(),
  })
  .meta({ id: 'SaveNotificationChannel' });
export type SaveNotificationChannel = z.input<typeof saveNotificationChannelSchema>;

const availableChannel = z.object({ id: z.string(), name: z.string() });

export const notificationChannelSchema = z
  .object({
    /** Absent while the user has not connected it. */
    id: z.uuid().optional(),
    name: z.string(),
    channel: z.enum(notificationChannelKinds),
    connected: z.boolean(),
    /** False when the server cannot offer it (Slack without SLACK_CLIENT_ID). */
    configured: z.boolean(),
    /** Where it goes: the user's address, mobile, or the Slack workspace and channel. */
    destination: z.string().optional(),
    groups: z.array(groupEntry),
    options: z.object({ availableChannels: z.array(availableChannel) }),
    /** The account's users who connected this channel: administrators see everyone, others themselves. */
    connectedUsers: z.array(z.object({ id: z.uuid(), name: z.string(), email: z.string() })),
    updated: z.object({ at: z.string() }).optional(),
  })
  .meta({ id: 'NotificationChannel' });
export type NotificationChannel = z.infer<typeof notificationChannelSchema>;

export const notificationChannelListSchema = z.object({ data: z.array(notificationChannelSchema) });
export const notificationChannelRecordSchema = recordResponse(notificationChannelSchema);

/** GET /v1/notificationchannels: the kinds this server offers. */
export const notificationChannelKindListSchema = z.object({
  data: z.array(z.object({ channel: z.enum(notificationChannelKinds), name: z.string(), configured: z.boolean() })),
});

export const slackAuthorizeSchema = recordResponse(z.object({ url: z.string() }));

/** A Slack workspace Parley was added to in this account, and how many people's channels use it. */
export const slackWorkspaceSchema = z.object({ teamId: z.string(), teamName: z.string(), channels: z.number().int() }).meta({ id: 'SlackWorkspace' });
export type SlackWorkspace = z.infer<typeof slackWorkspaceSchema>;

/** GET /v1/accounts/{acc}/integrations/slack/workspaces: whether Slack is configured here, and the workspaces. */
export const slackWorkspacesResponseSchema = recordResponse(z.object({ configured: z.boolean(), workspaces: z.array(slackWorkspaceSchema) }));
