import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { OutboxEventPayload } from '@parley/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { IntegrationActivityData } from '../../platform/db/schema/index.js';
import type { EventSubscriber } from '../../platform/events/outboxDispatcher.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/queue.js';
import { allConnectors } from './registry.js';

const messageData = z.object({
  message: z.object({
    id: z.string(),
    contact: z.object({ id: z.uuid() }),
    message: z.string(),
    direction: z.enum(['inbound', 'outbound']),
    created: z.object({ at: z.string() }),
    conversation: z.object({ id: z.uuid() }).optional(),
  }),
});

const contactData = z.object({ contact: z.object({ id: z.uuid() }) });
const closedData = z.object({ conversation: z.object({ id: z.uuid(), contact: z.object({ id: z.uuid() }) }) });

interface Gathered {
  accountId: string;
  eventId: string;
  contactId: string;
  data: IntegrationActivityData;
}

/** The kinds whose connector records messages, those that push contacts, and those that carry conversations. */
const recordingKinds = (): string[] => allConnectors().flatMap((c) => (c.recordMessage === undefined ? [] : [c.kind]));
const pushingKinds = (): string[] => allConnectors().flatMap((c) => (c.pushContact === undefined ? [] : [c.kind]));
const carryingKinds = (): string[] => allConnectors().flatMap((c) => (c.conversations === undefined ? [] : [c.kind]));

type RowKind = 'push' | 'close' | 'inbound' | 'outbound';
type Group = 'push' | 'close' | 'message';
const rowKind = ({ data }: Gathered): RowKind => ('action' in data ? (data.action === 'pushContact' ? 'push' : 'close') : data.direction);
const groupOf = (row: Gathered): Group => {
  const kind = rowKind(row);
  return kind === 'inbound' || kind === 'outbound' ? 'message' : kind;
};

/** Which rows an integration wants, by what they ask. */
function wantedBy(group: Group): SQL {
  switch (group) {
    case 'push':
      return sql`coalesce(i.properties->>'pushContacts', 'false') = 'true'
          and not exists (select 1 from integration_contacts l where l.account_id = e.account_id and l.contact_id = e.contact_id)`;
    case 'close':
      // Only a conversation carried to the provider and open there (one the provider closed is closed already).
      return sql`exists (select 1 from integration_conversations l where l.account_id = e.account_id and l.kind = e.kind
          and l.conversation_id = (e.data->>'conversationId')::uuid and l.status = 'open')`;
    case 'message':
      return sql`coalesce(i.properties->>'recordMessages', 'true') <> 'false' and coalesce(i.properties->>'timelineType', '') <> 'disabled'`;
  }
}

/** The kinds a row goes to: a contact's text is carried into conversations too; what Parley sends is only recorded. */
function kindsOf(kind: RowKind): string[] {
  switch (kind) {
    case 'push':
      return pushingKinds();
    case 'close':
      return carryingKinds();
    case 'inbound':
      return [...new Set([...recordingKinds(), ...carryingKinds()])];
    case 'outbound':
      return recordingKinds();
  }
}

/**
 * The rows of events and kinds (each with an id of its own) for the integrations connected that want them, in
 * one statement, in the order the events came. A contact linked to a provider record already (a sync created
 * it) is not pushed.
 */
async function insertRows(tx: Tx, rows: readonly Gathered[], group: Group): Promise<number> {
  const values = rows.flatMap((r) =>
    kindsOf(rowKind(r)).map((kind) => sql`(${uuidv7()}::uuid, ${r.accountId}::uuid, ${kind}, ${r.eventId}, ${r.contactId}::uuid, ${JSON.stringify(r.data)}::jsonb)`),
  );
  if (values.length === 0) return 0;
  const wanted = wantedBy(group);
  const inserted = await queryRows<{ id: string }>(
    tx,
    sql`
    insert into integration_activities (id, account_id, kind, event_id, contact_id, data)
    select e.id, e.account_id, e.kind, e.event_id, e.contact_id, e.data
      from (values ${sql.join(values, sql`, `)}) as e(id, account_id, kind, event_id, contact_id, data)
      join integrations i on i.account_id = e.account_id and i.kind = e.kind and i.status = 'connected' and ${wanted}
    on conflict do nothing
    returning id`,
  );
  return inserted.length;
}

/**
 * The outbox subscriber of integrations (docs/integrations.md, "Messages on the provider's contact" and
 * "Contacts created in Parley"): a message sent or received becomes a row per connected integration that
 * records messages, a contact created one per connected integration that pushes contacts, written in the
 * round's transaction; the integrations.activities job sends them, so the outbox never waits on a provider.
 */
export class IntegrationActivitySubscriber implements EventSubscriber {
  readonly name = 'integrations';
  readonly types = ['messageSent', 'messageReceived', 'contactCreated', 'conversationClosed'];
  private gathered: Gathered[] = [];
  private wrote = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly job: JobDefinition,
  ) {}

  deliver(event: OutboxEventPayload): Promise<void> {
    if (event.type === 'contactCreated') {
      const created = contactData.safeParse(event.data);
      if (event.accountId !== null && created.success) {
        this.gathered.push({ accountId: event.accountId, eventId: event.id, contactId: created.data.contact.id, data: { action: 'pushContact' } });
      }
      return Promise.resolve();
    }
    if (event.type === 'conversationClosed') {
      const closed = closedData.safeParse(event.data);
      if (event.accountId !== null && closed.success) {
        const { conversation } = closed.data;
        this.gathered.push({ accountId: event.accountId, eventId: event.id, contactId: conversation.contact.id, data: { action: 'closeConversation', conversationId: conversation.id } });
      }
      return Promise.resolve();
    }
    const parsed = messageData.safeParse(event.data);
    if (event.accountId === null || !parsed.success) return Promise.resolve();
    const { message } = parsed.data;
    this.gathered.push({
      accountId: event.accountId,
      eventId: event.id,
      contactId: message.contact.id,
      data: {
        direction: message.direction,
        text: message.message,
        at: message.created.at,
        messageId: message.id,
        ...(message.conversation === undefined ? {} : { conversationId: message.conversation.id }),
      },
    });
    return Promise.resolve();
  }

  async beforeCommit(tx: Tx): Promise<void> {
    const rows = this.gathered;
    this.gathered = [];
    // Pushes first: a new contact's first message then finds it at the provider (the job takes rows by id);
    // messages before closes, so a text and the close that follows it keep their order.
    let written = 0;
    for (const group of ['push', 'message', 'close'] as const) {
      written += await insertRows(tx, rows.filter((r) => groupOf(r) === group), group);
    }
    if (written > 0) this.wrote = true;
  }

  async flush(): Promise<void> {
    if (!this.wrote) return;
    this.wrote = false;
    await this.jobs.send(this.job, {});
  }
}
