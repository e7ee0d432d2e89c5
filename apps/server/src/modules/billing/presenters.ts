import { formatMoney, type CatalogPlan, type Invoice, type Payment, type PaymentSource } from '@parley/shared';
import type { BillingCustomerRow, BillingInvoiceRow, BillingPaymentRow } from '../../platform/db/schema/index.js';

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

export type { CatalogPlan };
