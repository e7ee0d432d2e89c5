import type { Logger } from 'pino';
import type { SecretsConfig } from '../../../platform/config.js';
import type { Database } from '../../../platform/db/client.js';
import { NotifiedLoop } from '../../../platform/db/notifiedLoop.js';
import type { Mailer } from '../../../platform/mail/index.js';
import type { CarrierRegistry } from '../../carriers/index.js';
import { accountAudience } from '../accountAudience.js';
import { digestMail } from '../notificationMails.js';
import { slackToken } from './channelManager.js';
import { claimDuePosts, claimedChannels, markFailed, markSent, type ChannelPost, type ClaimedChannel } from './channelPosts.js';
import { FinalFailure, sendChannelText } from './channelText.js';
import type { SlackApi } from './slackClient.js';
import { slackMessageOf } from './slackMessage.js';

export const CHANNELS_WAKE = 'parley_notification_channels';

export interface ChannelSenderOptions {
  database: Database;
  mailer: Mailer;
  carriers: CarrierRegistry;
  secrets: SecretsConfig;
  slack: SlackApi | null;
  publicUrl: string;
  log: Logger;
  quietMs?: number;
  maxWaitMs?: number;
  pollIntervalMs?: number;
}

/**
 * Sends users' channel posts (docs/notifications.md, "Channels"): a channel's waiting e-mail posts as one
 * digest, its waiting SMS posts as one text, each Slack post as a message of its own (its ts kept so a
 * reply in its thread finds the conversation). Failures are tried again on the webhooks' schedule.
 */
export class ChannelSender {
  private readonly loop: NotifiedLoop;

  constructor(private readonly options: ChannelSenderOptions) {
    this.loop = new NotifiedLoop({
      database: options.database,
      channel: CHANNELS_WAKE,
      pollIntervalMs: options.pollIntervalMs ?? 5_000,
      log: options.log,
      failure: 'notification channel round failed',
      round: () => this.round(),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  wake(): void {
    this.loop.wake();
  }

  async round(): Promise<boolean> {
    const db = this.options.database.db;
    const posts = await claimDuePosts(db, this.options.quietMs ?? 10_000, this.options.maxWaitMs ?? 60_000);
    if (posts.length === 0) return false;
    const byChannel = new Map<string, ChannelPost[]>();
    for (const post of posts) byChannel.set(post.channelId, [...(byChannel.get(post.channelId) ?? []), post]);
    const channels = await claimedChannels(db, [...byChannel.keys()]);
    await Promise.all(
      [...byChannel].map(async ([channelId, waiting]) => {
        const channel = channels.get(channelId);
        // A channel disconnected meanwhile took its posts with it.
        if (channel !== undefined) await this.send(channel, waiting);
      }),
    );
    return true;
  }

  private async send(channel: ClaimedChannel, posts: ChannelPost[]): Promise<void> {
    const db = this.options.database.db;
    switch (channel.channel) {
      case 'email':
        return this.attempt(channel, posts, async () => {
          await this.sendDigest(channel, posts);
          await markSent(db, posts.map((p) => p.id), null);
        });
      case 'sms':
        return this.attempt(channel, posts, async () => {
          const input = { accountId: channel.account_id, userMobile: channel.mobile_number, userCountry: channel.mobile_country, posts, link: this.linkOf(posts), lastTry: false };
          await sendChannelText({ database: this.options.database, carriers: this.options.carriers }, input);
          await markSent(db, posts.map((p) => p.id), null);
        });
      case 'slack':
        // One message per post: each has its own thread.
        for (const post of posts) await this.attempt(channel, [post], () => this.postToSlack(channel, post));
        return;
    }
  }

  /** Runs one send; a failure puts its posts back on the retry schedule (or fails them for good). */
  private async attempt(channel: ClaimedChannel, posts: readonly ChannelPost[], send: () => Promise<void>): Promise<void> {
    try {
      await send();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.log.warn({ err: error, channelId: channel.id, kind: channel.channel }, 'notification channel post failed');
      await markFailed(this.options.database.db, posts, message, error instanceof FinalFailure);
    }
  }

  private linkOf(posts: readonly ChannelPost[]): string {
    const newest = posts[posts.length - 1];
    return newest === undefined ? `${this.options.publicUrl}/conversations` : `${this.options.publicUrl}/conversations/${newest.conversationId}`;
  }

  private async sendDigest(channel: ClaimedChannel, posts: readonly ChannelPost[]): Promise<void> {
    const audience = await accountAudience(this.options.database.db, channel.account_id);
    const lines = [...posts].reverse().map((p) => ({ type: 'message', at: p.body.at, summary: `${p.body.contactName}: "${p.body.text}"` }));
    const mail = digestMail({ accountName: audience.name, lines, total: posts.length, countsByType: new Map([['message-received', posts.length]]), link: this.linkOf(posts) });
    await this.options.mailer.send({ to: channel.email, ...mail });
  }

  private async postToSlack(channel: ClaimedChannel, post: ChannelPost): Promise<void> {
    const slack = this.options.slack;
    if (slack === null) throw new FinalFailure('Slack is not configured on this server');
    const token = await slackToken(this.options.secrets, channel);
    if (token === null || channel.slack_channel_id === null) throw new FinalFailure('the Slack channel is not connected');
    const message = slackMessageOf(post, this.options.publicUrl);
    const posted = await slack.post(token, channel.slack_channel_id, message.text, message.blocks);
    await markSent(this.options.database.db, [post.id], posted);
  }
}
