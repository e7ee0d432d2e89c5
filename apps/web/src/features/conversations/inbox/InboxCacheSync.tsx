import { useInboxCacheSync } from './useInboxCacheSync';

/** Keeps the cached inbox in step with the websocket's events, on every page of the signed-in app. */
export const InboxCacheSync = ({ accountId }: { accountId: string | null }) => {
  useInboxCacheSync(accountId);
  return null;
};
