import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { integrationContacts, integrationConversationMessages, integrationConversations, type ContactRow, type IntegrationActivityData } from '../../platform/db/schema/index.js';
import type { Connector, ConnectorSession } from './connector.js';
import type { SyncJobDeps } from './syncJob.js';
import { linkedExternalId } from './contactLinks.js';

/*
 * Conversations carried into a provider's inbox (docs/integrations.md, "Intercom"): the framework's side. A
 * contact's text goes into the provider's conversation linked to its Parley conversation (one opened and
 * linked when there is none), once per message; a Parley conversation closed closes the linked one.
 */

type MessageData = Extract<IntegrationActivityData, { messageId: string }>;
type CloseData = Extract<IntegrationActivityData, { action: 'closeConversation' }>;
interface ActivityRef {
  accountId: string;
  kind: string;
  contactId: string;
}

export type RelayOutcome = { status: 'recorded' } | { status: 'failed'; error: string };

async function linkedConversation(deps: SyncJobDeps, row: ActivityRef, conversationId: string): Promise<{ externalId: string; status: string } | null> {
  const [link] = await deps.db
    .select({ externalId: integrationConversations.externalId, status: integrationConversations.status })
    .from(integrationConversations)
    .where(and(eq(integrationConversations.accountId, row.accountId), eq(integrationConversations.kind, row.kind), eq(integrationConversations.conversationId, conversationId)))
    .limit(1);
  return link ?? null;
}

/** Claims the message: false when it was posted (or is being posted) already. */
async function claim(deps: SyncJobDeps, row: ActivityRef, messageId: string): Promise<boolean> {
  const claimed = await deps.db
    .insert(integrationConversationMessages)
    .values({ accountId: row.accountId, kind: row.kind, messageId })
    .onConflictDoNothing()
    .returning({ messageId: integrationConversationMessages.messageId });
  return claimed.length > 0;
}

async function release(deps: SyncJobDeps, row: ActivityRef, messageId: string): Promise<void> {
  await deps.db
    .delete(integrationConversationMessages)
    .where(and(eq(integrationConversationMessages.accountId, row.accountId), eq(integrationConversationMessages.kind, row.kind), eq(integrationConversationMessages.messageId, messageId)));
}

/**
 * A contact's text into the provider's conversation. The message id is claimed before the call, so a retried
 * row never posts it twice; a call that fails releases it for the retry.
 */
export async function relayMessage(deps: SyncJobDeps, row: ActivityRef, data: MessageData, connector: Connector, session: ConnectorSession, contact: ContactRow): Promise<RelayOutcome> {
  const carrier = connector.conversations;
  if (carrier === undefined || data.conversationId === undefined) return { status: 'failed', error: 'This message belongs to no conversation to carry' };
  if (!(await claim(deps, row, data.messageId))) return { status: 'recorded' };
  const { conversationId } = data;
  const linked = await linkedConversation(deps, row, conversationId);
  let relayed: { contactExternalId: string; conversationExternalId: string };
  try {
    relayed = await carrier.relayInbound(session, {
      text: data.text,
      contact: { mobile: contact.mobileNumber, firstName: contact.firstName, lastName: contact.lastName },
      contactExternalId: await linkedExternalId(deps.db, row),
      conversationExternalId: linked?.status === 'open' ? linked.externalId : null,
    });
  } catch (error) {
    await release(deps, row, data.messageId);
    throw error;
  }
  await deps.db.transaction(async (tx) => {
    await tx.insert(integrationContacts).values({ accountId: row.accountId, kind: row.kind, externalId: relayed.contactExternalId, contactId: row.contactId, synced: {} }).onConflictDoNothing();
    await tx
      .insert(integrationConversations)
      .values({ id: uuidv7(), accountId: row.accountId, kind: row.kind, conversationId, externalId: relayed.conversationExternalId })
      .onConflictDoUpdate({
        target: [integrationConversations.accountId, integrationConversations.kind, integrationConversations.conversationId],
        set: { externalId: relayed.conversationExternalId, status: 'open', updatedAt: new Date() },
      });
    await tx
      .update(integrationConversationMessages)
      .set({ externalConversationId: relayed.conversationExternalId })
      .where(and(eq(integrationConversationMessages.accountId, row.accountId), eq(integrationConversationMessages.kind, row.kind), eq(integrationConversationMessages.messageId, data.messageId)));
  });
  return { status: 'recorded' };
}

/** A Parley conversation closed: the linked provider conversation is closed too (one closed there already is left). */
export async function closeLinked(deps: SyncJobDeps, row: ActivityRef, data: CloseData, connector: Connector, session: ConnectorSession): Promise<RelayOutcome> {
  const carrier = connector.conversations;
  if (carrier === undefined) return { status: 'failed', error: 'This integration carries no conversations' };
  const linked = await linkedConversation(deps, row, data.conversationId);
  if (linked === null || linked.status !== 'open') return { status: 'recorded' };
  await carrier.close(session, linked.externalId);
  await deps.db
    .update(integrationConversations)
    .set({ status: 'closed', updatedAt: new Date() })
    .where(and(eq(integrationConversations.accountId, row.accountId), eq(integrationConversations.kind, row.kind), eq(integrationConversations.conversationId, data.conversationId)));
  return { status: 'recorded' };
}
