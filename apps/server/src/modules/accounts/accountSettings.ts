import { eq, sql } from 'drizzle-orm';
import {
  AUTO_LINK_DOMAIN_MESSAGE,
  isValidSupportPhone,
  validationMessages,
  type UpdateAccount,
  type UpdateAccountOptions,
} from '@parley/shared';
import type { Db } from '../../platform/db/client.js';
import { accounts } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isAutoLinkDomain, turnTrackingOffForAccount } from '../links/index.js';

/**
 * Changes the name, defaults, support details and quiet hours of an account. The support phone is checked
 * for the account's country (the new one when the same request changes it).
 */
export async function updateAccountSettings(db: Db, accountId: string, update: UpdateAccount): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ defaultCountry: accounts.defaultCountry })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for('update');
    if (!current) throw notFound('The account');
    const country = update.defaults?.country ?? current.defaultCountry;
    if (update.support !== undefined && !isValidSupportPhone(update.support.phone, country)) {
      throw new AppError(400, 'validation_failed', `support.phone: ${validationMessages.phoneInvalid}`);
    }
    const { website, ...support } = update.support ?? {};
    await tx
      .update(accounts)
      .set({
        updatedAt: new Date(),
        ...(update.name === undefined ? {} : { name: update.name }),
        ...(update.defaults?.country === undefined ? {} : { defaultCountry: update.defaults.country }),
        ...(update.defaults?.messageFrequency === undefined
          ? {}
          : { messageFrequency: update.defaults.messageFrequency }),
        ...(update.support === undefined ? {} : { support: website === undefined ? support : { ...support, website } }),
        ...(update.quietHours === undefined
          ? {}
          : {
              quietHoursEnabled: update.quietHours.enabled,
              quietHoursStart: update.quietHours.start,
              quietHoursEnd: update.quietHours.end,
            }),
      })
      .where(eq(accounts.id, accountId));
    await publishEvent(tx, { type: 'accountUpdated', accountId, data: { accountId } });
  });
}

/**
 * Merges the options sent into the account's; options not sent keep their value. autoLinkShorten must name
 * the deployment's short domain (`sharedDomainId`) or a verified custom domain of the account.
 */
export async function updateAccountOptions(db: Db, accountId: string, patch: UpdateAccountOptions, sharedDomainId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const domainId = patch.autoLinkShorten;
    if (domainId != null && !(await isAutoLinkDomain(tx, accountId, domainId, sharedDomainId))) {
      throw new AppError(400, 'validation_failed', `autoLinkShorten: ${AUTO_LINK_DOMAIN_MESSAGE}`);
    }
    const [updated] = await tx
      .update(accounts)
      .set({ options: sql`${accounts.options} || ${JSON.stringify(patch)}::jsonb`, updatedAt: new Date() })
      .where(eq(accounts.id, accountId))
      .returning({ id: accounts.id });
    if (!updated) throw notFound('The account');
    if (patch.contactTracking === false) await turnTrackingOffForAccount(tx, accountId);
    await publishEvent(tx, { type: 'accountUpdated', accountId, data: { accountId } });
  });
}
