import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { isCalendarCancelReply, type OutboxEventPayload } from '@parley/shared';
import { queryRows, type Tx } from '../../../platform/db/client.js';
import type { EventSubscriber } from '../../../platform/events/outboxDispatcher.js';
import type { JobDefinition, JobQueue } from '../../../platform/jobs/queue.js';

const received = z.object({
  message: z.object({ contact: z.object({ id: z.uuid() }), message: z.string(), direction: z.literal('inbound') }),
});

interface Gathered {
  accountId: string;
  contactId: string;
}

/**
 * The outbox subscriber of Google Calendar's C or CANCEL replies (docs/integrations.md, "Google Calendar"): a
 * contact's text that is C or CANCEL marks, in the round's transaction, the reminders sent to that contact
 * within the connection's lookForward hours (when its `cancelReplies` is on, for an attendee of the event);
 * the job `integrations.calendarCancels` declines them in Google Calendar and answers, never the inbound path.
 */
export class CalendarCancelSubscriber implements EventSubscriber {
  readonly name = 'calendarCancels';
  readonly types = ['messageReceived'];
  private gathered: Gathered[] = [];
  private wrote = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly job: JobDefinition,
  ) {}

  deliver(event: OutboxEventPayload): Promise<void> {
    const parsed = received.safeParse(event.data);
    if (event.accountId !== null && parsed.success && isCalendarCancelReply(parsed.data.message.message)) {
      this.gathered.push({ accountId: event.accountId, contactId: parsed.data.message.contact.id });
    }
    return Promise.resolve();
  }

  async beforeCommit(tx: Tx): Promise<void> {
    const rows = this.gathered;
    this.gathered = [];
    if (rows.length === 0) return;
    const values = rows.map((r) => sql`(${r.accountId}::uuid, ${r.contactId}::uuid)`);
    const marked = await queryRows<{ id: string }>(
      tx,
      sql`
      update calendar_reminders r set cancel_requested_at = now()
        from (values ${sql.join(values, sql`, `)}) as e(account_id, contact_id), integrations i
       where r.account_id = e.account_id and r.contact_id = e.contact_id
         and i.account_id = r.account_id and i.kind = 'googlecalendar' and i.status = 'connected'
         and coalesce((i.properties->>'cancelReplies')::boolean, false)
         and r.status = 'sent' and r.attendee_email is not null and r.cancel_requested_at is null
         and r.created_at > now() - make_interval(hours => coalesce((i.properties->>'lookForward')::int, 24))
      returning r.id`,
    );
    if (marked.length > 0) this.wrote = true;
  }

  async flush(): Promise<void> {
    if (!this.wrote) return;
    this.wrote = false;
    await this.jobs.send(this.job, {});
  }
}
