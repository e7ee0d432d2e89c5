import type { IntegrationKind, IntegrationStatus } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { countAccountConnections } from '../carriers/index.js';
import { countEnabledWebhooks, countSlackInstalls } from '../notifications/index.js';

/** Where Zapier's REST-hook subscriptions point (packages/zapier-app). */
const ZAPIER_HOOKS_PREFIX = 'https://hooks.zapier.com/';

/**
 * Kinds whose page shows what another module keeps, with no connector of their own (docs/integrations.md,
 * "Webhooks"): their status is read from that module, and the framework's write routes do not apply.
 */
const managedElsewhere: Partial<Record<IntegrationKind, (q: Queryable, accountId: string) => Promise<IntegrationStatus>>> = {
  webhooks: async (q, accountId) => ((await countEnabledWebhooks(q, accountId)) > 0 ? 'connected' : 'notConnected'),
  // The Zapier app subscribes Zaps through the public webhooks API; Zapier's hooks host receives them.
  zapier: async (q, accountId) => ((await countEnabledWebhooks(q, accountId, ZAPIER_HOOKS_PREFIX)) > 0 ? 'connected' : 'notConnected'),
  // The Slack notification channels hold the workspace's install (docs/notifications.md, "Slack").
  slack: async (q, accountId) => ((await countSlackInstalls(q, accountId)) > 0 ? 'connected' : 'notConnected'),
  // The account's own Twilio connections are carrier connections (docs/carriers.md); the page manages them.
  twilio: async (q, accountId) => ((await countAccountConnections(q, accountId, 'twilio')) > 0 ? 'connected' : 'notConnected'),
};

/** The status another module gives the kind, or null when the kind is the framework's own. */
export async function statusElsewhere(q: Queryable, accountId: string, kind: IntegrationKind): Promise<IntegrationStatus | null> {
  const read = managedElsewhere[kind];
  return read === undefined ? null : read(q, accountId);
}
