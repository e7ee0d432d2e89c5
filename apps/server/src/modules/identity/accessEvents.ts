import { ACCESS_CHANGED_EVENT, type AccessChangedData } from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { publishEvents } from '../../platform/events/outbox.js';

/**
 * Tells the sockets of these users that what they may see in the account changed (their groups or role), in
 * the caller's transaction: the realtime server moves them to their new rooms (modules/realtime/realtimeServer.ts).
 */
export async function publishAccessChanged(q: Queryable, accountId: string, userIds: Iterable<string>): Promise<void> {
  const data: AccessChangedData = { accountId };
  const unique = [...new Set(userIds)];
  await publishEvents(
    q,
    unique.map((userId) => ({ type: ACCESS_CHANGED_EVENT, accountId: null, userId, groupId: null, data })),
  );
}
