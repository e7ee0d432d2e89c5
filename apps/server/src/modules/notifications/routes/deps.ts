import type { Principal } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';
import { allowedHostsFrom } from '../../../platform/net/allowedHosts.js';
import type { NotificationDeps } from '../notificationManager.js';

export const notificationDeps = (ctx: AppContext): NotificationDeps => ({
  db: ctx.database.db,
  secrets: ctx.config.secrets,
  allowedHosts: allowedHostsFrom(ctx.config.fetch.allowedHosts),
});

/** The user who made a notification; an API client is no user. */
export const creatorOf = (principal: Principal): string | null => (principal.clientId === undefined ? principal.userId : null);
