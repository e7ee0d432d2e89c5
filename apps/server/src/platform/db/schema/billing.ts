import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.js';

/**
 * An account's customer at the payment provider (docs/billing.md): its card as the provider last told us,
 * its plan subscription, and whether a declined card stopped the auto top-up (the rule itself is the account's
 * options.autotopup, read by the debit that crosses it).
 */
export const billingCustomers = pgTable('billing_customers', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
  customerId: text('customer_id').notNull(),
  paymentMethodId: text('payment_method_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  cardExpMonth: integer('card_exp_month'),
  cardExpYear: integer('card_exp_year'),
  subscriptionId: text('subscription_id'),
  subscriptionStatus: text('subscription_status'),
  /** The plan the provider's subscription is on; the account's plan follows it when the provider confirms. */
  subscriptionPlanId: text('subscription_plan_id'),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  /** Set when a declined auto top-up stopped the rule; a new card or a new rule clears it. */
  autoTopupStoppedAt: timestamp('auto_topup_stopped_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type BillingCustomerRow = typeof billingCustomers.$inferSelect;

/**
 * A payment asked of the provider (a top-up, an auto top-up). The balance moves when the provider confirms
 * it: the ledger entry's idempotency key is `payment:<providerPaymentId>`, so a confirmation that arrives
 * again credits nothing.
 */
export const billingPayments = pgTable(
  'billing_payments',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    providerPaymentId: text('provider_payment_id'),
    purpose: text('purpose', { enum: ['topup', 'autoTopup'] }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 4 }).notNull(),
    status: text('status', { enum: ['processing', 'requiresAction', 'succeeded', 'failed'] }).notNull(),
    error: text('error'),
    /** The caller's Idempotency-Key (a top-up) or the auto top-up's own key. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('billing_payments_amount_positive', sql`${t.amount} > 0`),
    uniqueIndex('billing_payments_key_idx').on(t.accountId, t.idempotencyKey),
    uniqueIndex('billing_payments_provider_idx').on(t.provider, t.providerPaymentId),
    index('billing_payments_auto_idx').on(t.accountId, t.purpose, t.createdAt),
    // One auto top-up at a time per account (docs/billing.md).
    uniqueIndex('billing_payments_one_auto_idx')
      .on(t.accountId)
      .where(sql`${t.purpose} = 'autoTopup' and ${t.status} in ('processing', 'requiresAction')`),
  ],
);

export type BillingPaymentRow = typeof billingPayments.$inferSelect;

/** Provider events already applied: a webhook delivered again is acknowledged and changes nothing. */
export const billingEvents = pgTable(
  'billing_events',
  {
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** Invoices as the provider issued them (plan charges and top-ups), kept for the Invoices tab. */
export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    providerInvoiceId: text('provider_invoice_id').notNull(),
    description: text('description').notNull(),
    /** `[{ id, description, amount }]` */
    lines: jsonb('lines').notNull(),
    total: numeric('total', { precision: 14, scale: 4 }).notNull(),
    status: text('status').notNull(),
    error: text('error'),
    /** Stripe's hosted PDF; null for the sandbox, whose PDF the server writes. */
    pdfUrl: text('pdf_url'),
    receiptUrl: text('receipt_url'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('billing_invoices_provider_idx').on(t.provider, t.providerInvoiceId),
    index('billing_invoices_account_idx').on(t.accountId, t.issuedAt),
  ],
);

export type BillingInvoiceRow = typeof billingInvoices.$inferSelect;

/**
 * The sandbox provider's own records, kept as the provider would keep them: customers, cards, payment
 * intents, subscriptions and invoices as JSON objects with Stripe-like ids (docs/billing.md).
 */
export const sandboxObjects = pgTable(
  'sandbox_objects',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['customer', 'card', 'paymentIntent', 'subscription', 'invoice'] }).notNull(),
    customerId: text('customer_id'),
    /** The caller's idempotency key: a create repeated with it answers the first object. */
    idempotencyKey: text('idempotency_key'),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_objects_key_idx').on(t.kind, t.idempotencyKey).where(sql`${t.idempotencyKey} is not null`),
    index('sandbox_objects_customer_idx').on(t.customerId, t.kind),
  ],
);

/** The sandbox's events, waiting to be delivered to the same event path Stripe's webhooks take. */
export const sandboxEvents = pgTable(
  'sandbox_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [index('sandbox_events_pending_idx').on(t.createdAt).where(sql`${t.deliveredAt} is null`)],
);
