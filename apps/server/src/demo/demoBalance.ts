import { eq } from 'drizzle-orm';
import { formatMoney, messagePrice, moneyToUnits, planPricingSchema, unitsToMoney } from '@parley/shared';
import type { Db } from '../platform/db/client.js';
import { accounts, type PlanRow } from '../platform/db/schema/index.js';
import { AppError } from '../platform/errors.js';
import { creditAccount } from '../modules/billing/index.js';
import { demoCampaign, demoContacts, demoOptOutKey, demoScripts } from './demoData.js';

/** What the demo's messages cost on the account's plan: every text is one segment. */
export function demoCost(plan: Pick<PlanRow, 'pricing' | 'isTrial'>): { messages: number; units: bigint } {
  const pricing = planPricingSchema.parse(plan.pricing);
  const priceTo = (key: string): bigint => {
    const country = demoContacts.find((c) => c.key === key)?.country ?? 'US';
    return moneyToUnits(messagePrice(pricing, country, { segments: 1, mms: false }));
  };
  const campaign = demoContacts.filter((c) => c.tags.includes(demoCampaign.tag) && c.key !== demoOptOutKey).map((c) => c.key);
  const replies = demoScripts.flatMap((s) => s.turns.filter((t) => t.from === 'business').map(() => s.contact));
  // The auto responder answers one of the scripts' questions; trial plans have none.
  const autoReplies = plan.isTrial ? [] : ['hannah'];
  const recipients = [...campaign, ...replies, ...autoReplies];
  return { messages: recipients.length, units: recipients.reduce((sum, key) => sum + priceTo(key), 0n) };
}

export const DEMO_TOPUP_DESCRIPTION = 'Demo credit';

/** Top-ups go in steps of 10 USD, at least one. */
const TOP_UP_STEP = 100_000n;

/**
 * Makes sure the balance covers the demo's messages. On the embedded database the demo credits it in steps of
 * 10 USD, through the ledger: a credit, not a payment, so no card is needed and no provider is asked (a paid
 * top-up needs a card on file, docs/billing.md); on PostgreSQL a balance that falls short is refused with
 * what to do. Answers the amount credited, or null.
 */
export async function coverDemoCost(db: Db, embedded: boolean, accountId: string, cost: { messages: number; units: bigint }): Promise<string | null> {
  const [row] = await db.select({ balance: accounts.balance }).from(accounts).where(eq(accounts.id, accountId));
  const balance = moneyToUnits(row?.balance ?? '0');
  if (balance >= cost.units) return null;
  if (!embedded) {
    throw new AppError(
      402,
      'bad_request',
      `The demo sends about ${String(cost.messages)} messages (about $${formatMoney(unitsToMoney(cost.units))}) and the balance is $${formatMoney(unitsToMoney(balance))}. Top the account up first.`,
    );
  }
  const steps = (cost.units - balance + TOP_UP_STEP - 1n) / TOP_UP_STEP;
  const amount = unitsToMoney(steps * TOP_UP_STEP);
  // The demo's own credit, straight to the ledger: no card is involved on the embedded database's demo.
  await db.transaction((tx) => creditAccount(tx, { accountId, amount, description: DEMO_TOPUP_DESCRIPTION }));
  return formatMoney(amount);
}
