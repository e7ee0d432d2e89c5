import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db/client.js';
import { conversations, integrationConversations, integrations, type IntegrationConversationRow } from '../../../platform/db/schema/index.js';
import { closeConversation } from '../../conversations/index.js';
import { WHOLE_ACCOUNT } from '../../messaging/index.js';

/*
 * The links between Intercom conversations and Parley's, as Intercom's webhooks reach them: only through an
 * integration connected to the workspace that sent the webhook.
 */

/** The link of an Intercom conversation of this workspace, in an account connected to it (null: none). */
export async function linkOfWorkspace(db: Db, workspaceId: string, externalId: string): Promise<IntegrationConversationRow | null> {
  const [row] = await db
    .select({ link: integrationConversations })
    .from(integrationConversations)
    .innerJoin(integrations, and(eq(integrations.accountId, integrationConversations.accountId), eq(integrations.kind, integrationConversations.kind)))
    .where(
      and(
        eq(integrationConversations.kind, 'intercom'),
        eq(integrationConversations.externalId, externalId),
        eq(integrations.status, 'connected'),
        sql`${integrations.connection}->>'workspaceId' = ${workspaceId}`,
      ),
    )
    .limit(1);
  return row?.link ?? null;
}

/** The Parley conversation's contact and number. */
export async function conversationOf(db: Db, link: Pick<IntegrationConversationRow, 'accountId' | 'conversationId'>): Promise<{ contactId: string; phoneNumberId: string | null } | null> {
  const [row] = await db
    .select({ contactId: conversations.contactId, phoneNumberId: conversations.phoneNumberId })
    .from(conversations)
    .where(and(eq(conversations.accountId, link.accountId), eq(conversations.id, link.conversationId)))
    .limit(1);
  return row ?? null;
}

/**
 * Closes the Parley conversation of a link Intercom closed. The link is marked closed first, so the
 * conversationClosed that follows does not go back to Intercom.
 */
export async function closeLinkedInParley(db: Db, link: Pick<IntegrationConversationRow, 'id' | 'accountId' | 'conversationId'>): Promise<void> {
  await db.update(integrationConversations).set({ status: 'closed', updatedAt: new Date() }).where(eq(integrationConversations.id, link.id));
  await closeConversation(db, link.accountId, WHOLE_ACCOUNT, link.conversationId);
}
