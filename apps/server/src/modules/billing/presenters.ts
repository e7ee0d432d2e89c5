import { formatMoney, type AccountPlanStatus, type CatalogPlan, type Invoice, type Payment, type PaymentSource } from '@parley/shared';
import type { BillingCustomerRow, BillingInvoiceRow, BillingPaymentRow, PlanRow } from '../../platform/db/schema/index.js';

export function presentPayment(row: BillingPaymentRow): Payment {
  return {
    id: row.id,
    purpose: row.purpose,
    status: row.status,
    amount: formatMoney(row.amount),
    error: row.error,
    created: { at: row.createdAt.toISOString() },
  };
}

/** The card on file, or null ('No Payment Setup'). */
export function presentPaymentSource(row: BillingCustomerRow | null): PaymentSource | null {
  if (row?.cardBrand == null || row.cardLast4 === null || row.cardExpMonth === null || row.cardExpYear === null) return null;
  return { brand: row.cardBrand, last4: row.cardLast4, expiry: { month: row.cardExpMonth, year: row.cardExpYear } };
}

/** An invoice; the sandbox's PDF is this server's (invoicePdfPath), Stripe's its own. */
export function presentInvoice(row: BillingInvoiceRow, invoicePdfPath: string): Invoice {
  const lines = row.lines as { id: string; description: string; amount: string }[];
  return {
    id: row.id,
    date: row.issuedAt.toISOString(),
    description: row.description,
    lines: lines.map((line) => ({ id: line.id, description: line.description, amount: formatMoney(line.amount) })),
    total: formatMoney(row.total),
    status: row.status,
    error: row.error,
    invoicePdf: row.pdfUrl ?? invoicePdfPath,
    receipt: row.receiptUrl,
  };
}

/** The account's plan and its subscription (GET .../plan); no subscription without a customer that has one. */
export function presentPlanStatus(plan: PlanRow, customer: BillingCustomerRow | null): AccountPlanStatus {
  const subscription =
    customer?.subscriptionId == null || customer.subscriptionStatus === null
      ? null
      : {
          status: customer.subscriptionStatus,
          planId: customer.subscriptionPlanId,
          activeUntil: customer.currentPeriodEnd === null ? null : customer.currentPeriodEnd.toISOString(),
        };
  return { plan: { id: plan.id, name: plan.name, price: formatMoney(plan.price), isTrial: plan.isTrial }, subscription };
}

export type { CatalogPlan };
