import { formatMoney, type Charge } from '@parley/shared';
import type { AccountTransactionRow } from './queries.js';

/** A ledger entry as the billing screens show it. */
export function presentCharge(row: AccountTransactionRow): Charge {
  return {
    id: row.id,
    kind: row.kind,
    amount: formatMoney(row.amount),
    balanceAfter: formatMoney(row.balanceAfter),
    description: row.description,
    created: { at: row.createdAt.toISOString() },
  };
}
