import type { Conversation } from '@parley/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useMarkConversationRead } from './inbox/queries';

const subscribeVisibility = (onChange: () => void): (() => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => {
    document.removeEventListener('visibilitychange', onChange);
  };
};

/** Whether the tab is shown: a conversation open in a hidden tab is not being read. */
const useDocumentVisible = (): boolean =>
  useSyncExternalStore(subscribeVisibility, () => document.visibilityState === 'visible');

/**
 * Opening a conversation with unread messages marks them read (PUT conversations/{id}/read), and so does a
 * message that arrives while it is on screen. Each set of unread ids is asked for once.
 */
export function useMarkReadOnView(accountId: string, conversation: Conversation | undefined, allowed: boolean): void {
  const { mutate } = useMarkConversationRead(accountId, conversation?.id ?? '');
  const visible = useDocumentVisible();
  const unread = conversation?.unread.join(',') ?? '';
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!allowed || !visible || unread === '' || asked.current === unread) return;
    asked.current = unread;
    mutate({ read: true });
  }, [allowed, visible, unread, mutate]);
}
