import { sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { OutboxEventPayload } from '@parley/shared';
import { queryRows, type Tx } from '../../../platform/db/client.js';
import type { EventSubscriber } from '../../../platform/events/outboxDispatcher.js';
import type { JobDefinition, JobQueue } from '../../../platform/jobs/queue.js';

const received = z.object({
  message: z.object({ contact: z.object({ id: z.uuid() }), message: z.string(), direction: z.literal('inbound') }),
});

/** A contact's text goes back to the mail that last texted it, within this many days. */
export const REPLY_WINDOW_DAYS = 30;

interface Gathered {
  accountId: string;
  eventId: string;
  contactId: string;
  text: string;
}

/**
 * The outbox subscriber of the Email integration (docs/integrations.md, "Email"): a text received from a
 * contact that mail texted lately becomes a row to mail back to that mail's sender, written in the round's
 * transaction in one statement; the job `integrations.emailReplies` mails it, never the inbound path.
 */
export class EmailReplySubscriber implements EventSubscriber {
  readonly name = 'emailReplies';
  readonly types = ['messageReceived'];
  private gathered: Gathered[] = [];
  private wrote = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly job: JobDefinition,
  ) {}

  deliver(event: OutboxEventPayload): Promise<void> {
    const parsed = received.safeParse(event.data);
    if (event.accountId !== null && parsed.success && parsed.data.message.message.trim() !== '') {
      this.gathered.push({ accountId: event.accountId, eventId: event.id, contactId: parsed.data.message.contact.id, text: parsed.data.message.message });
    }
    return Promise.resolve();
  }

  async beforeCommit(tx: Tx): Promise<void> {
    const rows = this.gathered;
    this.gathered = [];
    if (rows.length === 0) return;
    const values = rows.map((r) => sql`(${uuidv7()}::uuid, ${r.accountId}::uuid, ${r.eventId}, ${r.contactId}::uuid, ${r.text})`);
    // The latest mail sent on to the contact, while the account's Email integration is connected.
    const inserted = await queryRows<{ id: string }>(
      tx,
      sql`
      insert into inbound_mail_replies (id, account_id, mail_id, event_id, text)
      select e.id, e.account_id, m.id, e.event_id, e.text
        from (values ${sql.join(values, sql`, `)}) as e(id, account_id, event_id, contact_id, text)
        join integrations i on i.account_id = e.account_id and i.kind = 'email' and i.status = 'connected'
        cross join lateral (
          select id from inbound_mails
           where account_id = e.account_id and contact_id = e.contact_id and status = 'sent'
             and received_at > now() - make_interval(days => ${REPLY_WINDOW_DAYS})
           order by received_at desc limit 1) m
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
