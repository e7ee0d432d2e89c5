import type { Message } from '@parley/shared';
import type { MessagePage } from './inbox/inboxReducer';

/**
 * The history's pages (newest first, as GET messages answers) in reading order: oldest at the top, each
 * message once. A message that arrived live sits in the first page and may come again in a page loaded
 * later, since the server's offsets moved by one.
 */
export function chronological(pages: readonly MessagePage[]): Message[] {
  const seen = new Set<string>();
  const newestFirst: Message[] = [];
  for (const page of pages) {
    for (const message of page.data) {
      if (seen.has(message.id)) continue;
      seen.add(message.id);
      newestFirst.push(message);
    }
  }
  return newestFirst.reverse();
}
