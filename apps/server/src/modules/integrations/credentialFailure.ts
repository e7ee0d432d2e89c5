import { and, eq, sql } from 'drizzle-orm';
import { INTEGRATION_NAMES, type IntegrationKind } from '@parley/shared';
import { queryRows, type Db } from '../../platform/db/client.js';
import { integrations } from '../../platform/db/schema/index.js';
import type { Mailer } from '../../platform/mail/index.js';
import { failActiveSyncs } from './syncStore.js';

/**
 * The provider refused the stored credentials: the integration goes to 'error' with the reason (its page
 * shows it), its active syncs fail, and the account's administrators are told by e-mail, as billing tells
 * them of a declined auto top-up. Told once: an integration already in error is not mailed about again.
 */
export async function credentialsRefused(db: Db, mailer: Mailer, input: { accountId: string; kind: IntegrationKind; reason: string }): Promise<void> {
  const changed = await db
    .update(integrations)
    .set({ status: 'error', errorReason: input.reason, updatedAt: new Date() })
    .where(and(eq(integrations.accountId, input.accountId), eq(integrations.kind, input.kind), eq(integrations.status, 'connected')))
    .returning({ id: integrations.id });
  await failActiveSyncs(db, input.accountId, input.kind, input.reason);
  if (changed.length === 0) return;
  const rows = await queryRows<{ name: string; email: string }>(
    db,
    sql`select a.name, u.email from accounts a
          join account_members m on m.account_id = a.id and m.role = 'Administrator'
          join users u on u.id = m.user_id
         where a.id = ${input.accountId}::uuid`,
  );
  const name = INTEGRATION_NAMES[input.kind];
  for (const row of rows) {
    await mailer.send({
      to: row.email,
      subject: `${name} needs to be connected again for ${row.name}`,
      text:
        `${name} refused the credentials ${row.name} connected it with: ${input.reason}\n\n` +
        `Contacts are not synchronized and messages are not recorded in ${name} until an administrator connects it again on the ${name} integration page.`,
    });
  }
}
