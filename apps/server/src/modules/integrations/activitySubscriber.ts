import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { OutboxEventPayload } from '@parley/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
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
  }),
});

interface Gathered {
  accountId: string;
  eventId: string;
  contactId: string;
  data: { direction: 'inbound' | 'outbound'; text: string; at: string; messageId: string };
}

/** The kinds whose connector records messages. */
const recordingKinds = (): string[] => allConnectors().flatMap((c) => (c.recordMessage === undefined ? [] : [c.kind]));

/**
 * The outbox subscriber of integrations (docs/integrations.md, "Messages on the provider's contact"): a
 * message sent or received becomes a row per connected integration that records messages, written in the
 * round's transaction in one statement; the integrations.activities job sends them, so the outbox never
 * waits on a provider.
 */
export class IntegrationActivitySubscriber implements EventSubscriber {
  readonly name = 'integrations';
  readonly types = ['messageSent', 'messageReceived'];
  private gathered: Gathered[] = [];
  private wrote = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly job: JobDefinition,
  ) {}

  deliver(event: OutboxEventPayload): Promise<void> {
    const parsed = messageData.safeParse(event.data);
    if (event.accountId === null || !parsed.success) return Promise.resolve();
    const { message } = parsed.data;
    this.gathered.push({
      accountId: event.accountId,
      eventId: event.id,
      contactId: message.contact.id,
      data: { direction: message.direction, text: message.message, at: message.created.at, messageId: message.id },
    });
    return Promise.resolve();
  }

  async beforeCommit(tx: Tx): Promise<void> {
    const rows = this.gathered;
    this.gathered = [];
    const kinds = recordingKinds();
    if (rows.length === 0 || kinds.length === 0) return;
    // A row per event and recording kind, each with an id of its own; the join keeps those connected.
    const values = rows.flatMap((r) =>
      kinds.map((kind) => sql`(${uuidv7()}::uuid, ${r.accountId}::uuid, ${kind}, ${r.eventId}, ${r.contactId}::uuid, ${JSON.stringify(r.data)}::jsonb)`),
    );
    const inserted = await queryRows<{ id: string }>(
      tx,
      sql`
      insert into integration_activities (id, account_id, kind, event_id, contact_id, data)
      select e.id, e.account_id, e.kind, e.event_id, e.contact_id, e.data
        from (values ${sql.join(values, sql`, `)}) as e(id, account_id, kind, event_id, contact_id, data)
        join integrations i on i.account_id = e.account_id and i.kind = e.kind and i.status = 'connected'
                           and coalesce(i.properties->>'recordMessages', 'true') <> 'false'
                           and coalesce(i.properties->>'timelineType', '') <> 'disabled'
      on conflict do nothing
      returning id`,
    );
    if (inserted.length > 0) this.wrote = true;
  }

  async flush(): Promise<void> {
    if (!this.wrote) return;
    this.wrote = false;
    await this.jobs.send(this.job, {});
  }
}
