import type { Logger } from 'pino';
import type { Config } from '../../platform/config.js';
import type { CarrierRegistry } from '../carriers/index.js';
import { ChannelFanout } from './channels/channelFanout.js';
import { slackApiOf } from './channels/channelDeps.js';
import { ChannelSender } from './channels/channelSender.js';
import type { Database } from '../../platform/db/client.js';
import type { EventSubscriber } from '../../platform/events/outboxDispatcher.js';
import type { Mailer } from '../../platform/mail/index.js';
import { accountAudience } from './accountAudience.js';
import type { DisabledEndpoint } from './deliveryResults.js';
import { EmailDigestSender } from './emailDigestSender.js';
import { NotificationFanout } from './notificationFanout.js';
import { endpointDisabledMail } from './notificationMails.js';
import { WebhookSender } from './webhookSender.js';

export interface NotificationDeliveryDeps {
  database: Database;
  config: Pick<Config, 'secrets' | 'fetch' | 'publicUrl' | 'slack'>;
  mailer: Mailer;
  /** What users' SMS channels text through (the account's numbers' carriers). */
  carriers: CarrierRegistry;
  log: Logger;
  /** Tests shorten the e-mail digests' quiet time and the polls. */
  digestQuietMs?: number;
  pollIntervalMs?: number;
}

/** The worker's side of notifications: the outbox subscriber and the two senders (webhooks, e-mail digests). */
export interface NotificationDelivery {
  readonly subscriber: EventSubscriber;
  /** Users' notification channels (docs/notifications.md, "Channels"): their outbox subscriber and sender. */
  readonly channelSubscriber: EventSubscriber;
  readonly channels: ChannelSender;
  readonly webhooks: WebhookSender;
  readonly digests: EmailDigestSender;
  stop(): Promise<void>;
}

export async function startNotificationDelivery(deps: NotificationDeliveryDeps): Promise<NotificationDelivery> {
  const { database, config, mailer, log } = deps;
  const tellAdministrators = async (endpoint: DisabledEndpoint): Promise<void> => {
    log.warn({ notificationId: endpoint.id, reason: endpoint.reason }, 'webhook disabled');
    const audience = await accountAudience(database.db, endpoint.accountId);
    const mail = endpointDisabledMail({ accountName: audience.name, destination: endpoint.destination, reason: endpoint.reason, link: `${config.publicUrl}/notifications` });
    for (const to of audience.administrators) {
      await mailer.send({ to, ...mail }).catch((err: unknown) => {
        log.warn({ err, notificationId: endpoint.id }, 'the administrators could not be told of a disabled webhook');
      });
    }
  };
  const webhooks = new WebhookSender({
    database,
    secrets: config.secrets,
    allowedHosts: config.fetch.allowedHosts,
    log,
    onDisabled: tellAdministrators,
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
  });
  const digests = new EmailDigestSender({
    database,
    mailer,
    publicUrl: config.publicUrl,
    log,
    ...(deps.digestQuietMs === undefined ? {} : { quietMs: deps.digestQuietMs }),
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
  });
  const subscriber = new NotificationFanout(() => {
    webhooks.wake();
  });
  const channels = new ChannelSender({
    database,
    mailer,
    carriers: deps.carriers,
    secrets: config.secrets,
    slack: slackApiOf(config),
    publicUrl: config.publicUrl,
    log,
    ...(deps.digestQuietMs === undefined ? {} : { quietMs: deps.digestQuietMs }),
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
  });
  const channelSubscriber = new ChannelFanout(() => {
    channels.wake();
  });
  await webhooks.start();
  await digests.start();
  await channels.start();
  return {
    subscriber,
    channelSubscriber,
    channels,
    webhooks,
    digests,
    async stop() {
      await webhooks.stop();
      await digests.stop();
      await channels.stop();
    },
  };
}
