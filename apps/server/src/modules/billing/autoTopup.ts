import { and, eq, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { formatMoney, type AutoTopup } from '@parley/shared';
import { queryRows, type Db, type Queryable, type Tx } from '../../platform/db/client.js';
import { accounts, billingCustomers, billingPayments } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail/index.js';
import { customerOf } from './payments/customers.js';
import type { PaymentProvider } from './payments/provider.js';
import { NO_PAYMENT_METHOD_MESSAGE } from './topup.js';
import { AUTO_TOPUP_DAILY_LIMIT } from '@parley/shared';

export const AUTO_TOPUP_DESCRIPTION = 'Automatic balance top-up';

/** The rule as the account's options keep it: USD with 4 decimals. */
export interface AutoTopupRule {
  below: string;
  amount: string;
}

const units = (amount: string): bigint => BigInt(formatMoney(amount).replace('.', ''));

/** Whether a debit from `before` to `after` went under the rule's threshold (it was at or above it). */
export function crossesThreshold(rule: AutoTopupRule, before: string, after: string): boolean {
  const below = units(rule.below);
  return units(before) >= below && units(after) < below;
}

/**
 * Called by the debit that crossed the threshold, in its transaction (the account row is locked, so debits
 * of one account come here one at a time). Writes the auto top-up as a payment waiting to be asked of the
 * provider (runAutoTopups asks it), unless one is already open, the card stopped the rule, there is no card,
 * or five were made in the last 24 hours. Nothing here fails the debit.
 */
export async function scheduleAutoTopup(tx: Tx, accountId: string, rule: AutoTopupRule): Promise<void> {
  const id = uuidv7();
  await tx.execute(sql`
    insert into ${billingPayments} (id, account_id, provider, purpose, amount, status, idempotency_key)
    select ${id}::uuid, c.account_id, c.provider, 'autoTopup', ${formatMoney(rule.amount)}::numeric, 'processing', ${`auto:${id}`}
      from ${billingCustomers} c
     where c.account_id = ${accountId}::uuid and c.payment_method_id is not null and c.auto_topup_stopped_at is null
       and (select count(*) from ${billingPayments} p
             where p.account_id = ${accountId}::uuid and p.purpose = 'autoTopup'
               and p.created_at > now() - interval '24 hours') < ${AUTO_TOPUP_DAILY_LIMIT}
    on conflict do nothing`);
}

export interface AutoTopupFailure {
  accountId: string;
  error: string;
}

/**
 * Asks the provider for the auto top-ups debits scheduled (off session: the card holder is not there).
 * Each uses its payment id as the provider's idempotency key, so two workers asking at once pay once. A
 * refusal stops the rule and is answered, for the administrators to be told.
 */
export async function runAutoTopups(db: Db, provider: PaymentProvider): Promise<AutoTopupFailure[]> {
  const pending = await db
    .select()
    .from(billingPayments)
    .where(and(eq(billingPayments.purpose, 'autoTopup'), eq(billingPayments.status, 'processing'), isNull(billingPayments.providerPaymentId), eq(billingPayments.provider, provider.name)))
    .limit(50);
  const failures: AutoTopupFailure[] = [];
  for (const payment of pending) {
    const customer = await customerOf(db, provider, payment.accountId);
    const result =
      customer?.paymentMethodId == null
        ? { providerPaymentId: `none_${payment.id}`, status: 'failed' as const, clientSecret: null, error: NO_PAYMENT_METHOD_MESSAGE }
        : await provider.createPayment(
            {
              accountId: payment.accountId,
              customerId: customer.customerId,
              paymentMethodId: customer.paymentMethodId,
              paymentId: payment.id,
              amount: formatMoney(payment.amount),
              description: AUTO_TOPUP_DESCRIPTION,
              offSession: true,
            },
            `payment:${payment.id}`,
          );
    // Off session nobody can authenticate: a payment that asks for it has failed.
    const status = result.status === 'requiresAction' ? 'failed' : result.status;
    const error = status === 'failed' ? (result.error ?? 'The card needs authentication.') : null;
    const [updated] = await db
      .update(billingPayments)
      .set({ providerPaymentId: result.providerPaymentId, status, error, updatedAt: new Date() })
      .where(and(eq(billingPayments.id, payment.id), eq(billingPayments.status, 'processing'), isNull(billingPayments.providerPaymentId)))
      .returning({ id: billingPayments.id });
    if (updated && status === 'failed') {
      await db.update(billingCustomers).set({ autoTopupStoppedAt: new Date(), updatedAt: new Date() }).where(eq(billingCustomers.accountId, payment.accountId));
      failures.push({ accountId: payment.accountId, error: error ?? 'The payment failed.' });
    }
  }
  return failures;
}

/** Tells the account's administrators that a declined card stopped the auto top-up. */
export async function notifyAutoTopupFailed(db: Db, mailer: Mailer, failure: AutoTopupFailure): Promise<void> {
  const rows = await queryRows<{ name: string; email: string }>(
    db,
    sql`select a.name, u.email from accounts a
          join account_members m on m.account_id = a.id and m.role = 'Administrator'
          join users u on u.id = m.user_id
         where a.id = ${failure.accountId}::uuid`,
  );
  for (const row of rows) {
    await mailer.send({
      to: row.email,
      subject: `Auto top-up failed for ${row.name}`,
      text:
        `The automatic top-up of ${row.name} was refused: ${failure.error}\n\n` +
        'Auto top-up is stopped until a card is added again in the account settings (Plan tab, Payment Details). ' +
        'Messages stop sending when the balance runs out.',
    });
  }
}

/** The account's rule, or null when auto top-up is off; stopped: a declined card stopped it. */
export async function autoTopupOf(q: Queryable, accountId: string): Promise<{ rule: AutoTopupRule | null; stopped: boolean }> {
  const [row] = await q
    .select({ options: accounts.options, stoppedAt: billingCustomers.autoTopupStoppedAt })
    .from(accounts)
    .leftJoin(billingCustomers, eq(billingCustomers.accountId, accounts.id))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!row) throw notFound('The account');
  const rule = (row.options as { autotopup?: AutoTopupRule }).autotopup ?? null;
  return { rule, stopped: rule !== null && row.stoppedAt !== null };
}

/**
 * Turns auto top-up on with a rule, or off (null). It needs a card on file, as the Plan tab only offers it
 * then; a new rule gives a stopped one another chance.
 */
export async function setAutoTopup(db: Db, provider: PaymentProvider, accountId: string, rule: AutoTopup | null): Promise<void> {
  if (rule !== null) {
    const customer = await customerOf(db, provider, accountId);
    if (customer?.paymentMethodId == null) throw new AppError(402, 'bad_request', NO_PAYMENT_METHOD_MESSAGE);
  }
  await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({
        options:
          rule === null
            ? sql`${accounts.options} - 'autotopup'`
            : sql`jsonb_set(${accounts.options}, '{autotopup}', ${JSON.stringify({ below: formatMoney(rule.below), amount: formatMoney(rule.amount) })}::jsonb)`,
        updatedAt: new Date(),
      })
      .where(eq(accounts.id, accountId));
    await tx.update(billingCustomers).set({ autoTopupStoppedAt: null, updatedAt: new Date() }).where(eq(billingCustomers.accountId, accountId));
  });
}
