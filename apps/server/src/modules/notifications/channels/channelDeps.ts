import type { Config } from '../../../platform/config.js';
import type { Db } from '../../../platform/db/client.js';
import type { ChannelDeps } from './channelManager.js';
import { SlackApi } from './slackClient.js';

/** Slack's API for this config, or null when Slack is not configured (no SLACK_CLIENT_ID). */
export const slackApiOf = (config: Pick<Config, 'slack' | 'fetch'>): SlackApi | null => (config.slack === null ? null : new SlackApi(config.slack, config.fetch.allowedHosts));

export const channelDeps = (db: Db, config: Pick<Config, 'slack' | 'fetch' | 'secrets'>): ChannelDeps => ({ db, secrets: config.secrets, slack: slackApiOf(config) });
