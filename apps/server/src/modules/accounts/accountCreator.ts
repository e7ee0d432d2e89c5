import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { AccountCreatedEventData, CreateAccount } from '@parley/shared';
import { TRIAL_PLAN_ID } from '../billing/index.js';
import type { Db } from '../../platform/db/client.js';
import { accountMembers, accounts, users, type AccountRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { notFound } from '../../platform/errors.js';
import { creditAccount } from '../billing/index.js';
import type { FirstNumbers } from '../phoneNumbers/index.js';

export const TRIAL_CREDIT_DESCRIPTION = 'Trial credit';

export interface NewAccount {
  ownerId: string;
  name: string;
  country: string;
  /** The plan (an operator's choice, parley create-account --plan); the Trial plan when left out. */
  planId?: string;
  promoCode?: string | undefined;
  support: { address?: string; phone?: string; email?: string; website?: string | undefined };
  questionnaire: {
    messagingVolume?: string;
    messagingType: string[];
    desiredIntegrations: string[];
    accountUseCases?: string | undefined;
  };
}

/** The create-account form (POST /v1/accounts) as a new account of the signed-in user. */
export function newAccountFromForm(ownerId: string, form: CreateAccount): NewAccount {
  return {
    ownerId,
    name: form.name,
    country: form.defaults.country,
    promoCode: form.promoCode,
    support: form.support,
    questionnaire: form.questionnaire,
  };
}

/**
 * Opens an account on the Trial plan (or the plan given) with its creator as Administrator and, on the
 * Trial plan, credits the trial credit through the ledger, all in one transaction, and announces it (accountCreated). With `firstNumbers`
 * (embedded mode with the simulator) the account gets its first number in the same transaction; the
 * candidates are read before it, and an account with no number to be had is still created.
 */
export async function createAccountFor(
  db: Db,
  account: NewAccount,
  trialCredit: string,
  firstNumbers: FirstNumbers | null = null,
): Promise<AccountRow> {
  const offer = (await firstNumbers?.prepare(account.country)) ?? null;
  const { row, firstNumber } = await db.transaction(async (tx) => {
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, account.ownerId)).limit(1);
    if (!owner) throw notFound('The user');
    const [row] = await tx
      .insert(accounts)
      .values({
        id: uuidv7(),
        name: account.name,
        planId: account.planId ?? TRIAL_PLAN_ID,
        defaultCountry: account.country,
        support: dropUndefined(account.support),
        questionnaire: dropUndefined(account.questionnaire),
        promoCode: account.promoCode ?? null,
      })
      .returning();
    if (!row) throw new Error('the account insert returned nothing');
    await tx.insert(accountMembers).values({ accountId: row.id, userId: account.ownerId, role: 'Administrator' });
    let balance = row.balance;
    if (row.planId === TRIAL_PLAN_ID && !/^0*(\.0*)?$/.test(trialCredit)) {
      const entry = await creditAccount(tx, {
        accountId: row.id,
        amount: trialCredit,
        description: TRIAL_CREDIT_DESCRIPTION,
      });
      balance = entry.balanceAfter;
    }
    const data: AccountCreatedEventData = { accountId: row.id, name: row.name, planId: row.planId };
    await publishEvent(tx, { type: 'accountCreated', accountId: row.id, userId: account.ownerId, data });
    return { row: { ...row, balance }, firstNumber: (await offer?.claim(tx, row.id)) ?? null };
  });
  if (offer !== null && firstNumber !== null) await offer.settle(firstNumber);
  return row;
}

/** jsonb keeps no undefined; leaving the keys out keeps the stored documents tidy. */
function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
