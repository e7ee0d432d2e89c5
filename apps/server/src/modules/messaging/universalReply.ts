import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { ContactRow } from '../../platform/db/schema/index.js';

/**
 * Universal reply (docs/decisions.md, "Universal reply"): a message to a number with universalReply on, from
 * a contact whom another of the account's numbers talked to last (the contact's sender number), lands in the
 * contact's open conversation on that number instead of opening one on this number. The thread stays one,
 * and the account's answer comes from the number the contact knows. Null when the rule does not apply (no
 * other sender number, released, or no open conversation on it).
 */
export async function universalReplyConversation(
  tx: Tx,
  accountId: string,
  contact: Pick<ContactRow, 'id' | 'senderPhoneNumberId'>,
  phoneNumberId: string,
): Promise<{ id: string; started: false } | null> {
  const sender = contact.senderPhoneNumberId;
  if (sender === null || sender === phoneNumberId) return null;
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`select c.id from conversations c join phone_numbers p on p.id = c.phone_number_id and p.account_id = c.account_id
         where c.account_id = ${accountId} and c.contact_id = ${contact.id} and c.phone_number_id = ${sender}
           and c.closed_at is null and p.status = 'active'
         limit 1`,
  );
  return row === undefined ? null : { id: row.id, started: false };
}
