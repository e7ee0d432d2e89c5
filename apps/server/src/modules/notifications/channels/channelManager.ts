import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  CHANNEL_NEEDS_MOBILE_MESSAGE,
  checkMobile,
  SLACK_CHANNEL_UNKNOWN_MESSAGE,
  SLACK_NOT_AUTHORIZED_MESSAGE,
  SLACK_NOT_CONFIGURED_MESSAGE,
  type NotificationChannelKind,
  type SaveNotificationChannel,
} from '@parley/shared';
import type { SecretsConfig } from '../../../platform/config.js';
import type { Db } from '../../../platform/db/client.js';
import { notificationChannels, type NotificationChannelRow } from '../../../platform/db/schema/index.js';
import { AppError, notFound } from '../../../platform/errors.js';
import { existingSecretsCipher, storingCipher } from '../../../platform/secrets/keyring.js';
import type { SecretCipher } from '../../../platform/secrets/cipher.js';
import { findOwnChannel, foreignGroupIds, userContact } from './channelStore.js';
import type { SlackApi, SlackInstall } from './slackClient.js';

export interface ChannelDeps {
  db: Db;
  secrets: SecretsConfig;
  /** Null: Slack is not configured on this server. */
  slack: SlackApi | null;
}

export const SLACK_NEEDS_SECRETS_KEY_MESSAGE =
  'Slack needs SECRETS_KEY to keep its token: set it on every process of this deployment (32 random bytes, e.g. `openssl rand -base64 32`)';

const sealToken = (cipher: SecretCipher, channelId: string, token: string): string => cipher.encrypt(token, `notification-channel:${channelId}`);

/** A Slack channel's bot token, opened; null when it has none or no key can open it. */
export async function slackToken(secrets: SecretsConfig, row: Pick<NotificationChannelRow, 'id' | 'secret'>): Promise<string | null> {
  if (row.secret === null) return null;
  const cipher = await existingSecretsCipher(secrets);
  return cipher === null ? null : cipher.decrypt(row.secret, `notification-channel:${row.id}`);
}

/**
 * Connects or changes the user's channel of a kind (docs/notifications.md, "Channels"): the groups it hears
 * about (the account's own, else 400), SMS only with a valid mobile on the profile, Slack only once the app
 * was added to a workspace (the OAuth callback made the row) and with a channel the bot lists.
 */
export async function saveChannel(deps: ChannelDeps, accountId: string, userId: string, kind: NotificationChannelKind, input: SaveNotificationChannel): Promise<NotificationChannelRow> {
  const groups = (input.groups ?? []).map((g) => ({ id: g.id, settings: g.settings ?? {} }));
  const foreign = await foreignGroupIds(deps.db, accountId, groups.map((g) => g.id));
  if (foreign.length > 0) throw notFound('The group');
  const existing = await findOwnChannel(deps.db, accountId, userId, kind);
  switch (kind) {
    case 'email':
      break;
    case 'sms': {
      const contact = await userContact(deps.db, userId);
      const mobile = contact?.mobile === null || contact === null || contact.country === null ? null : checkMobile({ number: contact.mobile, country: contact.country });
      if (mobile === null || !mobile.ok) throw new AppError(400, 'bad_request', CHANNEL_NEEDS_MOBILE_MESSAGE);
      break;
    }
    case 'slack':
      return saveSlack(deps, existing, groups, input.channelId);
  }
  if (existing !== null) {
    const [row] = await deps.db.update(notificationChannels).set({ groups, updatedAt: sql`now()` }).where(eq(notificationChannels.id, existing.id)).returning();
    if (!row) throw notFound('The notification channel');
    return row;
  }
  const [row] = await deps.db
    .insert(notificationChannels)
    .values({ id: uuidv7(), accountId, userId, channel: kind, groups })
    .onConflictDoUpdate({ target: [notificationChannels.accountId, notificationChannels.userId, notificationChannels.channel], set: { groups, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error('the notification channel upsert returned nothing');
  return row;
}

async function saveSlack(deps: ChannelDeps, existing: NotificationChannelRow | null, groups: NotificationChannelRow['groups'], channelId: string | undefined): Promise<NotificationChannelRow> {
  if (deps.slack === null) throw new AppError(409, 'conflict', SLACK_NOT_CONFIGURED_MESSAGE);
  if (existing === null) throw new AppError(409, 'conflict', SLACK_NOT_AUTHORIZED_MESSAGE);
  let chosen: { id: string; name: string } | null = existing.slackChannelId === null ? null : { id: existing.slackChannelId, name: existing.slackChannelName ?? existing.slackChannelId };
  if (channelId !== undefined && channelId !== existing.slackChannelId) {
    const token = await slackToken(deps.secrets, existing);
    if (token === null) throw new AppError(409, 'conflict', SLACK_NOT_AUTHORIZED_MESSAGE);
    const found = (await deps.slack.channels(token)).find((c) => c.id === channelId);
    if (found === undefined) throw new AppError(400, 'bad_request', SLACK_CHANNEL_UNKNOWN_MESSAGE);
    chosen = found;
  }
  const [row] = await deps.db
    .update(notificationChannels)
    .set({ groups, slackChannelId: chosen?.id ?? null, slackChannelName: chosen?.name ?? null, updatedAt: sql`now()` })
    .where(eq(notificationChannels.id, existing.id))
    .returning();
  if (!row) throw notFound('The notification channel');
  return row;
}

/**
 * The user's Slack channel after the app was added to a workspace: the bot token sealed with the secrets
 * key, bound to the row. Adding it again (another workspace) replaces the token and forgets the channel.
 */
export async function storeSlackInstall(deps: Pick<ChannelDeps, 'db' | 'secrets'>, accountId: string, userId: string, install: SlackInstall): Promise<NotificationChannelRow> {
  const cipher = await storingCipher(deps.secrets, SLACK_NEEDS_SECRETS_KEY_MESSAGE);
  const existing = await findOwnChannel(deps.db, accountId, userId, 'slack');
  const id = existing?.id ?? uuidv7();
  const sameTeam = existing?.slackTeamId === install.teamId;
  const values = {
    slackTeamId: install.teamId,
    slackTeamName: install.teamName,
    slackBotUserId: install.botUserId,
    secret: sealToken(cipher, id, install.token),
    slackChannelId: sameTeam ? existing.slackChannelId : null,
    slackChannelName: sameTeam ? existing.slackChannelName : null,
    updatedAt: sql`now()`,
  };
  const [row] =
    existing === null
      ? await deps.db.insert(notificationChannels).values({ id, accountId, userId, channel: 'slack', ...values }).returning()
      : await deps.db.update(notificationChannels).set(values).where(eq(notificationChannels.id, id)).returning();
  if (!row) throw new Error('the Slack channel was not stored');
  return row;
}

/** Removes the user's own channel (by kind or id); 404 for anything else. Its waiting posts go with it. */
export async function disconnectChannel(db: Db, accountId: string, userId: string, kindOrId: string): Promise<void> {
  const row = await findOwnChannel(db, accountId, userId, kindOrId);
  if (row === null) throw notFound('The notification channel');
  await db.delete(notificationChannels).where(and(eq(notificationChannels.id, row.id), eq(notificationChannels.accountId, accountId)));
}
