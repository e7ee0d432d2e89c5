import { and, eq } from 'drizzle-orm';
import { MESSAGE_READ_NOT_UNREADABLE_MESSAGE, type MessageEventData } from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { messages, type MessageRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { visibleMessageCondition, type ConversationViewer } from './conversationVisibility.js';
import { presentMessage } from './messagePresenter.js';
import { isUuid } from '../../platform/db/ids.js';

export const MESSAGE_NOT_FOUND = 'The message';

/** docs/inbox.md, Unread: what can be unread: an incoming message, or an outgoing one that failed. */
const canBeUnread = (row: MessageRow): boolean => row.direction === 'inbound' || row.status === 'failed' || row.status === 'undelivered';

/**
 * Marks a message read (keeping the first time it was read) or unread: an incoming one, or an outgoing one
 * that failed (the team should see the failure). Unread state is the team's (conversations list unread
 * message ids), so the change goes out as messageRead to those who see the conversation.
 */
export async function markMessageRead(
  db: Db,
  accountId: string,
  viewer: ConversationViewer,
  id: string,
  read: boolean,
  now = new Date(),
): Promise<MessageRow> {
  if (!isUuid(id)) throw notFound(MESSAGE_NOT_FOUND);
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(messages)
      .where(and(eq(messages.accountId, accountId), eq(messages.id, id), visibleMessageCondition(viewer, messages.conversationId)))
      .for('update');
    if (!current) throw notFound(MESSAGE_NOT_FOUND);
    if (!canBeUnread(current)) throw new AppError(400, 'bad_request', MESSAGE_READ_NOT_UNREADABLE_MESSAGE);
    if ((current.readAt !== null) === read) return current;
    const [updated] = await tx
      .update(messages)
      .set({ readAt: read ? now : null })
      .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
      .returning();
    if (!updated) throw notFound(MESSAGE_NOT_FOUND);
    const data: MessageEventData = { message: presentMessage(updated) };
    await publishEvent(tx, { type: 'messageRead', accountId, data });
    return updated;
  });
}
