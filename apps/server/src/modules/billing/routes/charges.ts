import { count, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chargeListQuerySchema, chargeListSchema, errorBodySchema, formatMoney, type Charge } from '@parley/shared';
import type { Queryable } from '../../../platform/db/client.js';
import { accountTransactions } from '../../../platform/db/schema/index.js';
import { membershipOf } from '../../identity/index.js';
import type { AppContext } from '../../../platform/context.js';

type TransactionRow = typeof accountTransactions.$inferSelect;

/** A ledger entry as the billing screens show it. */
export function presentCharge(row: TransactionRow): Charge {
  return {
    id: row.id,
    kind: row.kind,
    amount: formatMoney(row.amount),
    balanceAfter: formatMoney(row.balanceAfter),
    description: row.description,
    created: { at: row.createdAt.toISOString() },
  };
}

async function listCharges(
  q: Queryable,
  accountId: string,
  page: { offset: number; limit: number },
): Promise<{ rows: TransactionRow[]; totalCount: number }> {
  const where = eq(accountTransactions.accountId, accountId);
  const [total] = await q.select({ n: count() }).from(accountTransactions).where(where);
  const rows = await q
    .select()
    .from(accountTransactions)
    .where(where)
    // Ids are UUIDv7: entries written in one instant keep the order they were written in.
    .orderBy(desc(accountTransactions.createdAt), desc(accountTransactions.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, totalCount: total?.n ?? 0 };
}

export const chargeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = (app, { ctx }) => {
  app.get(
    '/accounts/:acc/charges',
    {
      schema: {
        tags: ['billing'],
        summary: "The account's ledger, newest first: credits (top-ups), debits (messages) and refunds",
        params: z.object({ acc: z.uuid() }),
        querystring: chargeListQuerySchema,
        response: { 200: chargeListSchema, 403: errorBodySchema, 404: errorBodySchema },
      },
      config: { permission: 'billing.view' },
    },
    async (request) => {
      const { accountId } = membershipOf(request);
      const { offset, limit } = request.query;
      const { rows, totalCount } = await listCharges(ctx.database.db, accountId, { offset, limit });
      return { data: rows.map(presentCharge), pagination: { totalCount, offset, limit } };
    },
  );
  return Promise.resolve();
};
