import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';

/** The account's name and its administrators' addresses: whom Parley tells about its notifications. */
export async function accountAudience(q: Queryable, accountId: string): Promise<{ name: string; administrators: string[] }> {
  const rows = await queryRows<{ name: string; email: string | null }>(
    q,
    sql`select a.name, u.email
          from accounts a
          left join account_members m on m.account_id = a.id and m.role = 'Administrator'
          left join users u on u.id = m.user_id
         where a.id = ${accountId}`,
  );
  return { name: rows[0]?.name ?? 'your account', administrators: rows.flatMap((r) => (r.email === null ? [] : [r.email])) };
}
