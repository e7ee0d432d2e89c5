import { and, eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db, Tx } from '../../../../platform/db/client.js';
import { sandboxEvents, sandboxObjects } from '../../../../platform/db/schema/index.js';
import {
  fromCents,
  type CardSetupInput,
  type CardSetupResult,
  type CustomerInput,
  type PaymentInput,
  type PaymentProvider,
  type PaymentResult,
  type ProviderChange,
  type SubscriptionInput,
  type SubscriptionResult,
} from '../provider.js';
import {
  AUTHENTICATION_REQUIRED_MESSAGE,
  CARD_DECLINED_MESSAGE,
  SANDBOX_CARD_REFUSED_MESSAGE,
  sandboxCard,
  type SandboxCard,
} from './cardCatalog.js';
import { planCharge, settleWithCredit } from './proration.js';
import { commitSubscription, creditOf, holdSubscription, releaseSubscription, subscriptionStateOf, type SubscriptionCommit } from './subscriptionStore.js';

type ObjectKind = (typeof sandboxObjects.$inferSelect)['kind'];

const newId = (prefix: string): string => `${prefix}_sbx_${randomBytes(12).toString('hex')}`;

/** A card the sandbox's card form tokenised (or a Stripe alias), with the customer it was saved to. */
interface CardObject extends SandboxCard {
  customerId: string | null;
}

/** A payment or a card set-up waiting for the card holder's authentication. */
interface PendingAuthentication {
  change: ProviderChange;
  failure: ProviderChange;
  eventType: string;
  failureType: string;
  /** The invoice an approved charge issues, as a direct charge issues it at once; none for a card set-up. */
  invoice: InvoiceToIssue | null;
  /** A plan change's new state, written once approved. */
  subscription?: SubscriptionCommit;
}

interface InvoiceToIssue {
  customerId: string;
  description: string;
  lines: { key: string; description: string; amount: string }[];
  total: string;
}

const singleLine = (customerId: string, description: string, amount: string, key: string): InvoiceToIssue => ({
  customerId,
  description,
  lines: [{ key, description, amount }],
  total: amount,
});

export class SandboxCardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxCardError';
  }
}

/**
 * The embedded payment provider (docs/billing.md): no money moves, but it behaves as a provider does. It
 * keeps its customers, cards, payment intents, subscriptions and invoices in its own tables, answers a
 * create repeated with one idempotency key with the first object, and confirms later: each outcome is an
 * event in sandbox_events, delivered by deliverSandboxEvents to the same path Stripe's webhooks take.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;

  /** afterEmit: called once a call that produced events has committed (the server delivers them then). */
  constructor(
    private readonly db: Db,
    private readonly afterEmit: () => void = () => undefined,
  ) {}

  /** The card form: a test card number and expiry become a token (a PaymentMethod id) for setupCard. */
  async tokenizeCard(number: string, expiry: { month: number; year: number }): Promise<string> {
    const card = sandboxCard(number, expiry);
    if (!card) throw new SandboxCardError(SANDBOX_CARD_REFUSED_MESSAGE);
    const id = newId('pm');
    await this.db.insert(sandboxObjects).values({ id, kind: 'card', customerId: null, data: { ...card, customerId: null } });
    return id;
  }

  createCustomer(input: CustomerInput, idempotencyKey: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      const earlier = await this.byKey(tx, 'customer', idempotencyKey);
      if (earlier) return earlier.id;
      const id = newId('cus');
      await tx.insert(sandboxObjects).values({ id, kind: 'customer', customerId: id, idempotencyKey, data: { name: input.name, accountId: input.accountId } });
      return id;
    });
  }

  setupCard(input: CardSetupInput, idempotencyKey: string): Promise<CardSetupResult> {
    return this.committed(async (tx) => {
      const earlier = await this.byKey(tx, 'card', idempotencyKey);
      if (earlier) return earlier.data as CardSetupResult;
      const card = await this.cardOf(tx, input.tokenId);
      if (!card) throw new SandboxCardError(SANDBOX_CARD_REFUSED_MESSAGE);
      const setupId = newId('seti');
      const paymentMethodId = input.tokenId.startsWith('pm_sbx_') ? input.tokenId : newId('pm');
      const saved = { kind: 'card' as const, customerId: input.customerId, paymentMethodId, card: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear } };
      let result: CardSetupResult;
      if (card.behaviour === 'declinesSetup') {
        result = { setupId, status: 'failed', clientSecret: null, error: CARD_DECLINED_MESSAGE };
        await this.emit(tx, 'setup_intent.setup_failed', { kind: 'cardFailed', customerId: input.customerId, error: CARD_DECLINED_MESSAGE });
      } else if (card.behaviour === 'requiresAuthentication') {
        const clientSecret = `${setupId}_secret_${randomBytes(12).toString('hex')}`;
        result = { setupId, status: 'requiresAction', clientSecret, error: null };
        await this.holdForAuthentication(tx, clientSecret, {
          change: saved,
          failure: { kind: 'cardFailed', customerId: input.customerId, error: AUTHENTICATION_REQUIRED_MESSAGE },
          eventType: 'setup_intent.succeeded',
          failureType: 'setup_intent.setup_failed',
          invoice: null,
        });
      } else {
        result = { setupId, status: 'succeeded', clientSecret: null, error: null };
        await this.emit(tx, 'setup_intent.succeeded', saved);
      }
      await this.saveCard(tx, paymentMethodId, { ...card, customerId: input.customerId });
      await tx.insert(sandboxObjects).values({ id: setupId, kind: 'card', customerId: input.customerId, idempotencyKey, data: result });
      return result;
    });
  }

  createPayment(input: PaymentInput, idempotencyKey: string): Promise<PaymentResult> {
    return this.committed(async (tx) => {
      const earlier = await this.byKey(tx, 'paymentIntent', idempotencyKey);
      if (earlier) return (earlier.data as { result: PaymentResult }).result;
      const card = await this.cardOf(tx, input.paymentMethodId);
      const providerPaymentId = newId('pi');
      const succeeded: ProviderChange = { kind: 'payment', providerPaymentId, paymentId: input.paymentId, status: 'succeeded', error: null };
      const failed = (error: string): ProviderChange => ({ kind: 'payment', providerPaymentId, paymentId: input.paymentId, status: 'failed', error });
      let result: PaymentResult;
      if (!card || card.customerId !== input.customerId || card.behaviour === 'declinesCharges' || card.behaviour === 'declinesSetup') {
        result = { providerPaymentId, status: 'processing', clientSecret: null, error: null };
        await this.emit(tx, 'payment_intent.payment_failed', failed(CARD_DECLINED_MESSAGE));
      } else if (card.behaviour === 'requiresAuthentication') {
        if (input.offSession) {
          result = { providerPaymentId, status: 'processing', clientSecret: null, error: null };
          await this.emit(tx, 'payment_intent.payment_failed', failed(AUTHENTICATION_REQUIRED_MESSAGE));
        } else {
          const clientSecret = `${providerPaymentId}_secret_${randomBytes(12).toString('hex')}`;
          result = { providerPaymentId, status: 'requiresAction', clientSecret, error: null };
          await this.holdForAuthentication(tx, clientSecret, {
            change: succeeded,
            failure: failed(AUTHENTICATION_REQUIRED_MESSAGE),
            eventType: 'payment_intent.succeeded',
            failureType: 'payment_intent.payment_failed',
            invoice: singleLine(input.customerId, input.description, input.amount, 'top-up'),
          });
        }
      } else {
        result = { providerPaymentId, status: 'processing', clientSecret: null, error: null };
        await this.emit(tx, 'payment_intent.succeeded', succeeded);
        await this.emitInvoice(tx, singleLine(input.customerId, input.description, input.amount, 'top-up'));
      }
      await tx.insert(sandboxObjects).values({
        id: providerPaymentId,
        kind: 'paymentIntent',
        customerId: input.customerId,
        idempotencyKey,
        data: { result, amount: input.amount, paymentId: input.paymentId, description: input.description },
      });
      return result;
    });
  }

  /**
   * Starts or changes the subscription. A change mid period is prorated to the second and invoiced at once,
   * as Stripe's always_invoice does (proration.ts); the customer's credit balance pays first.
   */
  changeSubscription(input: SubscriptionInput, idempotencyKey: string): Promise<SubscriptionResult> {
    return this.committed(async (tx) => {
      const earlier = await this.byKey(tx, 'subscription', idempotencyKey);
      if (earlier) return (earlier.data as { result: SubscriptionResult }).result;
      const card = await this.cardOf(tx, input.paymentMethodId);
      const subscriptionId = input.subscriptionId ?? newId('sub');
      const current = input.subscriptionId === null ? null : await subscriptionStateOf(tx, input.subscriptionId);
      const charge = planCharge(current, input.plan, new Date());
      const credit = await creditOf(tx, input.customerId);
      const settled = settleWithCredit(charge.lines, credit);
      const commit: SubscriptionCommit = { subscriptionId, customerId: input.customerId, state: charge.state, creditChangeCents: settled.creditCents - credit };
      const active: ProviderChange = {
        kind: 'subscription',
        customerId: input.customerId,
        subscriptionId,
        planId: input.plan.id,
        status: 'active',
        currentPeriodEnd: new Date(charge.state.periodEnd),
      };
      const planInvoice: InvoiceToIssue = {
        customerId: input.customerId,
        description: charge.description,
        lines: settled.lines.map((line) => ({ key: line.key, description: line.description, amount: fromCents(line.cents) })),
        total: fromCents(settled.totalCents),
      };
      // Nothing to charge (a net credit, or the credit balance pays it all): the card is not asked, as with Stripe.
      const charges = settled.totalCents > 0;
      let result: SubscriptionResult;
      if (!card || card.customerId !== input.customerId || (charges && (card.behaviour === 'declinesCharges' || card.behaviour === 'declinesSetup'))) {
        result = { subscriptionId, status: 'failed', clientSecret: null, error: CARD_DECLINED_MESSAGE };
      } else if (charges && card.behaviour === 'requiresAuthentication') {
        const clientSecret = `${subscriptionId}_secret_${randomBytes(12).toString('hex')}`;
        result = { subscriptionId, status: 'requiresAction', clientSecret, error: null };
        await this.holdForAuthentication(tx, clientSecret, {
          change: active,
          // Refused, a running subscription stays as it was (as Stripe's pending update); a new one is incomplete.
          failure: current === null ? { ...active, planId: null, status: 'incomplete' } : { ...active, planId: current.plan.id, currentPeriodEnd: new Date(current.periodEnd) },
          eventType: 'customer.subscription.updated',
          failureType: 'customer.subscription.updated',
          invoice: planInvoice,
          subscription: await holdSubscription(tx, commit),
        });
      } else {
        result = { subscriptionId, status: 'active', clientSecret: null, error: null };
        await this.emit(tx, 'customer.subscription.updated', active);
        await this.emitInvoice(tx, planInvoice);
        await commitSubscription(tx, commit);
      }
      await tx.insert(sandboxObjects).values({
        id: `${subscriptionId}:${idempotencyKey}`,
        kind: 'subscription',
        customerId: input.customerId,
        idempotencyKey,
        data: { result, planId: input.plan.id },
      });
      return result;
    });
  }

  /**
   * The card holder's answer to the sandbox's authentication page (3-D Secure): approved, the held payment,
   * card or plan change goes on; refused, it fails. False when the secret is unknown or already answered.
   */
  authenticate(clientSecret: string, approve: boolean): Promise<boolean> {
    return this.committed(async (tx) => {
      const [held] = await tx
        .delete(sandboxObjects)
        .where(and(eq(sandboxObjects.kind, 'card'), eq(sandboxObjects.id, `auth:${clientSecret}`)))
        .returning({ data: sandboxObjects.data });
      if (!held) return false;
      const pending = held.data as PendingAuthentication;
      await this.emit(tx, approve ? pending.eventType : pending.failureType, approve ? pending.change : pending.failure);
      if (approve && pending.invoice) await this.emitInvoice(tx, pending.invoice);
      if (pending.subscription) await (approve ? commitSubscription(tx, pending.subscription) : releaseSubscription(tx, pending.subscription));
      return true;
    });
  }

  private async holdForAuthentication(tx: Tx, clientSecret: string, pending: PendingAuthentication): Promise<void> {
    await tx.insert(sandboxObjects).values({ id: `auth:${clientSecret}`, kind: 'card', customerId: null, data: pending });
  }

  private async emitInvoice(tx: Tx, { customerId, description, lines, total }: InvoiceToIssue): Promise<void> {
    const providerInvoiceId = newId('in');
    const invoice = {
      providerInvoiceId,
      description,
      lines: lines.map((line) => ({ id: `${providerInvoiceId}_${line.key}`, description: line.description, amount: line.amount })),
      total,
      status: 'paid',
      error: null,
      pdfUrl: null,
      receiptUrl: null,
      issuedAt: new Date(),
    };
    await tx.insert(sandboxObjects).values({ id: providerInvoiceId, kind: 'invoice', customerId, data: invoice });
    await this.emit(tx, 'invoice.paid', { kind: 'invoice', customerId, invoice });
  }

  private async emit(tx: Tx, type: string, change: ProviderChange): Promise<void> {
    await tx.insert(sandboxEvents).values({ id: newId('evt'), type, data: change });
  }

  /** Runs a call's transaction, then tells afterEmit (harmless when the call emitted nothing). */
  private async committed<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.afterEmit();
    return result;
  }

  private async byKey(tx: Tx, kind: ObjectKind, idempotencyKey: string) {
    const [row] = await tx
      .select({ id: sandboxObjects.id, data: sandboxObjects.data })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.kind, kind), eq(sandboxObjects.idempotencyKey, idempotencyKey)))
      .limit(1);
    return row;
  }

  /** A saved or tokenised card by PaymentMethod id, or a test card by its Stripe alias (pm_card_visa). */
  private async cardOf(tx: Tx, paymentMethodId: string): Promise<CardObject | null> {
    const [row] = await tx.select({ data: sandboxObjects.data }).from(sandboxObjects).where(eq(sandboxObjects.id, paymentMethodId)).limit(1);
    if (row) return row.data as CardObject;
    const alias = sandboxCard(paymentMethodId);
    return alias ? { ...alias, customerId: null } : null;
  }

  private async saveCard(tx: Tx, paymentMethodId: string, card: CardObject): Promise<void> {
    await tx
      .insert(sandboxObjects)
      .values({ id: paymentMethodId, kind: 'card', customerId: card.customerId, data: card })
      .onConflictDoUpdate({ target: sandboxObjects.id, set: { customerId: sql`excluded.customer_id`, data: sql`excluded.data` } });
  }
}
