import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  PHONE_NUMBER_CONNECTION_NOT_SMPP_MESSAGE,
  PHONE_NUMBERS_TRIAL_MESSAGE,
  checkE164,
  type AddConnectionPhoneNumber,
} from '@parley/shared';
import { loadAccount } from '../billing/index.js';
import type { CarrierName } from '../carriers/index.js';
import type { Db, Queryable, Tx } from '../../platform/db/client.js';
import { auditLog, carrierSettings, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { insertConnectionNumber } from './connectionNumberInsert.js';
import { refuseHeldNumber } from './phoneNumberBuyer.js';
import { rateFor } from './phoneNumberCarrier.js';
import { isUuid } from '../../platform/db/ids.js';

/*
 * Numbers of an SMPP connection are added by hand: SMPP has no number inventory to buy from and no voice
 * to verify a hosted number by call, so the number is active on the word of whoever adds it. The operator
 * (`parley add-number`) may add one to any open account, on the deployment's SMPP_URL or on the account's
 * own connection; an administrator (the API) only on the account's own connection, whose inbound traffic
 * reaches only that connection's numbers (docs/carriers.md, "Numbers of an SMPP connection").
 */

/** Who says the number is the business's: the deployment's operator, or a member (user or API client) of the account. */
export type NumberVoucher = { kind: 'operator' } | { kind: 'member'; userId: string | null; clientId: string | null };

export type ConnectionNumberTarget =
  /** The deployment's SMPP connection (SMPP_URL): the operator's to hand out. */
  | { carrierSettingsId: null; voucher: { kind: 'operator' } }
  /** The account's own SMPP connection (carrier_settings). */
  | { carrierSettingsId: string; voucher: NumberVoucher };

export type ConnectionNumberInput = ConnectionNumberTarget & {
  accountId: string;
  number: AddConnectionPhoneNumber;
  /** The carriers the deployment's environment configures (the registry's `configured`). */
  configured: readonly CarrierName[];
};

export const CONNECTION_NOT_FOUND = 'The carrier connection';

/** The account's own connection, which must be an SMPP one; another account's answers 404 like an unknown one. */
async function requireSmppConnection(q: Queryable, accountId: string, settingsId: string): Promise<void> {
  const [row] = isUuid(settingsId)
    ? await q
        .select({ carrier: carrierSettings.carrier })
        .from(carrierSettings)
        .where(and(eq(carrierSettings.id, settingsId), eq(carrierSettings.accountId, accountId)))
        .limit(1)
    : [];
  if (!row) throw notFound(CONNECTION_NOT_FOUND);
  if (row.carrier !== 'smpp') throw new AppError(422, 'bad_request', PHONE_NUMBER_CONNECTION_NOT_SMPP_MESSAGE);
}

function requireDeploymentSmpp(configured: readonly CarrierName[]): void {
  if (!configured.includes('smpp')) {
    throw new AppError(
      422,
      'bad_request',
      "The smpp carrier is not configured for this deployment: set SMPP_URL, or name one of the account's own SMPP connections.",
    );
  }
}

/** The checks that can refuse, in the order an administrator meets them: the connection, the plan, the number. */
async function refuseUnless(db: Db, input: ConnectionNumberInput): Promise<void> {
  const found = await loadAccount(db, input.accountId);
  if (!found) throw notFound('The account');
  if (input.carrierSettingsId === null) requireDeploymentSmpp(input.configured);
  else await requireSmppConnection(db, input.accountId, input.carrierSettingsId);
  // Trial plans may not add numbers; the operator, who hands numbers out, is not held to it.
  if (input.voucher.kind === 'member' && found.plan.isTrial) throw new AppError(403, 'forbidden', PHONE_NUMBERS_TRIAL_MESSAGE);
  await refuseHeldNumber(db, input.accountId, input.number.number);
}

async function recordVoucher(tx: Tx, input: ConnectionNumberInput, row: PhoneNumberRow): Promise<void> {
  const { voucher } = input;
  await tx.insert(auditLog).values({
    id: uuidv7(),
    accountId: input.accountId,
    actorUserId: voucher.kind === 'member' ? voucher.userId : null,
    actorClientId: voucher.kind === 'member' ? voucher.clientId : null,
    action: 'phoneNumber.add',
    subjectType: 'phoneNumber',
    subjectId: row.id,
    details: { number: row.number, carrier: row.carrier, carrierSettingsId: row.carrierSettingsId, vouchedBy: voucher.kind },
  });
}

/**
 * Adds a number of an SMPP connection to the account, active and verified at once (verified by whoever adds
 * it: the audit log keeps who), with its country, its type as the phone library reports it, its own country
 * as destination and the rate given, else the carrier's (1 a second for SMPP, which states none). A number
 * active in any account, or already this account's, is refused (409); two adds racing for one number meet
 * the active-number index and the second gets 409.
 */
export async function addConnectionNumber(db: Db, input: ConnectionNumberInput): Promise<PhoneNumberRow> {
  await refuseUnless(db, input);
  const { number, name, messagesPerSecond } = input.number;
  const checked = checkE164(number);
  if (!checked.ok) throw new AppError(400, 'validation_failed', checked.message);
  const rate = messagesPerSecond ?? (await rateFor(db, 'smpp', null));
  return insertConnectionNumber(
    db,
    { accountId: input.accountId, e164: checked.e164, country: checked.country, name: name ?? '', carrier: 'smpp', carrierSettingsId: input.carrierSettingsId, messagesPerSecond: rate },
    (tx, inserted) => recordVoucher(tx, input, inserted),
  );
}
