import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { checkMobile, displayName, type OutboxEventPayload } from '@parley/shared';
import type { Tx } from '../../../platform/db/client.js';
import { queryRows } from '../../../platform/db/client.js';
import type { EventSubscriber } from '../../../platform/events/outboxDispatcher.js';
import { bulkUuidV7 } from '../../contacts/index.js';
import { memberSeesGroupCondition } from '../../messaging/index.js';
import { eventIdOf } from '../deliveryBody.js';
import { jsonRecords } from '../../../platform/db/jsonRecords.js';

const receivedMessage = z.object({ message: z.object({ conversation: z.object({ id: z.uuid() }), message: z.string(), media: z.array(z.unknown()).default([]) }) });

type Target = {
  id: string;
  channel: 'email' | 'sms' | 'slack';
  contact_id: string;
  first_name: string;
  last_name: string;
  contact_mobile: string;
  default_country: string;
};

const e164Of = (number: string | null, country: string | null): string | null => {
  if (number === null || country === null) return null;
  const checked = checkMobile({ number, country });
  return checked.ok ? checked.e164 : null;
};

/** Whether `mobile` is the mobile of a user with an SMS channel in the account (one the message's audience may not hold). */
async function isSmsUserMobile(tx: Tx, accountId: string, mobile: string | undefined): Promise<boolean> {
  if (mobile === undefined) return false;
  const rows = await queryRows<{ number: string | null; country: string | null }>(
    tx,
    sql`select u.mobile_number as number, u.mobile_country as country from notification_channels c join users u on u.id = c.user_id
         where c.account_id = ${accountId} and c.channel = 'sms'`,
  );
  return rows.some((r) => e164Of(r.number, r.country) === mobile);
}

/**
 * The outbox subscriber of users' notification channels (docs/notifications.md, "Channels"): a
 * messageReceived event makes a post for every connected channel whose user sees the conversation and
 * whose groups take it (none chosen: all), written in the dispatcher's round, unique per channel and event.
 * Texts about a message from a channel user's own mobile are not made: that is how texts cannot loop.
 */
export class ChannelFanout implements EventSubscriber {
  readonly name = 'notification-channels';
  readonly types = ['messageReceived'];
  private wrote = false;

  constructor(private readonly onWritten: () => void) {}

  async deliver(event: OutboxEventPayload, tx: Tx): Promise<void> {
    if (event.type !== 'messageReceived' || event.accountId === null) return;
    const parsed = receivedMessage.safeParse(event.data);
    if (!parsed.success) return;
    const { message } = parsed.data;
    const targets = await queryRows<Target>(
      tx,
      sql`select c.id, c.channel,
                 ct.id as contact_id, ct.first_name, ct.last_name, ct.mobile_number as contact_mobile, a.default_country
            from conversations conv
            join contacts ct on ct.id = conv.contact_id and ct.account_id = conv.account_id
            join accounts a on a.id = conv.account_id
            join notification_channels c on c.account_id = conv.account_id
            join account_members m on m.account_id = c.account_id and m.user_id = c.user_id
           where conv.id = ${message.conversation.id} and conv.account_id = ${event.accountId}
             and ${memberSeesGroupCondition({ role: sql`m.role`, userId: sql`c.user_id` }, sql`conv.group_id`)}
             and (jsonb_array_length(c.groups) = 0
                  or (conv.group_id is not null and c.groups @> jsonb_build_array(jsonb_build_object('id', conv.group_id::text))))
             and (c.channel <> 'slack' or c.slack_channel_id is not null)
           order by c.id`,
    );
    // A message from the mobile of any user with an SMS channel here makes no texts at all: two phones that
    // answer texts by themselves would otherwise text each other through the account for ever.
    const fromSmsUser = targets.some((t) => t.channel === 'sms') && (await isSmsUserMobile(tx, event.accountId, targets[0]?.contact_mobile));
    const wanted = targets.filter((t) => t.channel !== 'sms' || !fromSmsUser);
    if (wanted.length === 0) return;
    const [first] = wanted;
    if (first === undefined) return;
    const contactName = displayName({ firstName: first.first_name, lastName: first.last_name, mobile: first.contact_mobile }, first.default_country);
    const text = message.message !== '' ? message.message : `(${String(message.media.length)} attachment${message.media.length === 1 ? '' : 's'})`;
    const body = { contactName, contactNumber: first.contact_mobile, text, at: event.createdAt };
    const now = Date.now();
    const rows = wanted.map((t) => ({ id: bulkUuidV7(now), channel_id: t.id }));
    await tx.execute(sql`
      insert into notification_channel_posts (id, account_id, channel_id, event_id, conversation_id, contact_id, body)
      select r.id, ${event.accountId}::uuid, r.channel_id, ${eventIdOf(event.id)}, ${message.conversation.id}::uuid, ${first.contact_id}::uuid, ${JSON.stringify(body)}::jsonb
        from json_to_recordset(${jsonRecords(rows)}) as r(id uuid, channel_id uuid)
      on conflict (channel_id, event_id) do nothing`);
    this.wrote = true;
  }

  flush(): Promise<void> {
    if (this.wrote) {
      this.wrote = false;
      this.onWritten();
    }
    return Promise.resolve();
  }
}
