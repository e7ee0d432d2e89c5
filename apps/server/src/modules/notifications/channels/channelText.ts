import { sql } from 'drizzle-orm';
import { checkMobile, countSegments, messagePrice } from '@parley/shared';
import type { Database } from '../../../platform/db/client.js';
import { queryRows } from '../../../platform/db/client.js';
import { debitAccount, refundAccount } from '../../billing/index.js';
import type { CarrierName, CarrierRegistry } from '../../carriers/index.js';
import { loadAccountSendContext } from '../../messaging/index.js';
import type { ChannelPost } from './channelPosts.js';

type SenderRow = { number: string; carrier: CarrierName; carrier_settings_id: string | null };

/** The text of one or more waiting messages, short enough for a segment or two. */
export function channelTextOf(posts: readonly ChannelPost[], link: string): string {
  const newest = posts[posts.length - 1];
  if (newest === undefined) return '';
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  if (posts.length === 1) return `${newest.body.contactName}: ${clip(newest.body.text, 100)} ${link}`;
  return `${String(posts.length)} new messages on Parley, the latest from ${newest.body.contactName}: ${clip(newest.body.text, 60)} ${link}`;
}

/**
 * Texts a user about messages they were not there for (docs/notifications.md, "Channels"; docs/decisions.md,
 * "Notification texts"): from the number of the newest message's conversation (else the account's first
 * active number), through that number's carrier, charged to the account's balance at the plan's price for
 * the user's country as a ledger entry of its own, never to the contact's conversation. One charge per text
 * whatever the retries (keyed on the first post); a text the carrier refuses for good is refunded.
 */
export async function sendChannelText(
  deps: { database: Database; carriers: CarrierRegistry },
  input: { accountId: string; userMobile: string | null; userCountry: string | null; posts: readonly ChannelPost[]; link: string; lastTry: boolean },
): Promise<void> {
  const [first] = input.posts;
  const newest = input.posts[input.posts.length - 1];
  if (first === undefined || newest === undefined) return;
  const mobile = input.userMobile === null || input.userCountry === null ? null : checkMobile({ number: input.userMobile, country: input.userCountry });
  if (mobile === null || !mobile.ok) throw new FinalFailure('the user has no valid mobile number');
  const db = deps.database.db;
  const [sender] = await queryRows<SenderRow>(
    db,
    sql`select p.number, p.carrier, p.carrier_settings_id from phone_numbers p
         where p.account_id = ${input.accountId} and p.status = 'active'
         order by (p.id = (select phone_number_id from conversations where id = ${newest.conversationId})) desc nulls last, p.created_at
         limit 1`,
  );
  if (sender === undefined) throw new FinalFailure('the account has no active number');
  const text = channelTextOf(input.posts, input.link);
  const segments = countSegments(text);
  const key = `notification-text:${first.id}`;
  const price = await db.transaction(async (tx) => {
    const context = await loadAccountSendContext(tx, input.accountId);
    const amount = messagePrice(context.pricing, mobile.country, { segments: segments.segments, mms: false });
    if (amount !== '0.0000') await debitAccount(tx, { accountId: input.accountId, amount, description: `Notification text to ${mobile.e164}`, idempotencyKey: key });
    return amount;
  });
  const carrier = await deps.carriers.forNumber({ carrier: sender.carrier, carrierSettingsId: sender.carrier_settings_id });
  const result = await carrier.send({ id: first.id, accountId: input.accountId, from: sender.number, to: mobile.e164, text, encoding: segments.encoding, segments: segments.segments, media: [] });
  if (result.accepted) return;
  if (result.retryable && !input.lastTry) throw new Error(`${result.errorCode}: ${result.errorText}`);
  if (price !== '0.0000') {
    await db.transaction((tx) => refundAccount(tx, { accountId: input.accountId, amount: price, description: `Notification text to ${mobile.e164} not sent`, idempotencyKey: `${key}:refund` }));
  }
  throw new FinalFailure(`${result.errorCode}: ${result.errorText}`);
}

/** A failure no retry mends (no mobile, no number, a final refusal). */
export class FinalFailure extends Error {
  override name = 'FinalFailure';
}
