import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import {
  PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE,
  PHONE_NUMBER_ALREADY_OURS_MESSAGE,
  PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE,
  VERIFICATION_CALL_INTERVAL_SECONDS,
  VERIFICATION_CALL_TOO_SOON_MESSAGE,
  VERIFICATION_CALL_UNSUPPORTED_MESSAGE,
  VERIFICATION_CODE_TTL_SECONDS,
  VERIFICATION_EXPIRED_MESSAGE,
  VERIFICATION_MAX_ATTEMPTS,
  VERIFICATION_NO_CALL_MESSAGE,
  VERIFICATION_TOO_MANY_ATTEMPTS_MESSAGE,
  VERIFICATION_WRONG_CODE_MESSAGE,
} from '@parley/shared';
import type { CarrierRegistry } from '../carriers/index.js';
import type { Db } from '../../platform/db/client.js';
import { phoneNumbers, type PhoneNumberRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { AppError, notFound } from '../../platform/errors.js';
import { activeHolder, findPhoneNumber, lockPhoneNumber, verificationExpired } from './queries.js';
import { presentPhoneNumber } from './phoneNumberPresenter.js';
import { carrierCall, isActiveNumberViolation, openCarrier } from './phoneNumberCarrier.js';

const NUMBER = 'The phone number';

const hashCode = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

const sameHash = (a: string, b: string): boolean => {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
};

/** A fresh 6-digit code, leading zeros included. */
export const newVerificationCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

const activeElsewhere = (holderAccountId: string, accountId: string): AppError =>
  new AppError(409, 'conflict', holderAccountId === accountId ? PHONE_NUMBER_ALREADY_OURS_MESSAGE : PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE);

/**
 * Places a call to the number that reads out a fresh 6-digit code. Only the code's sha256 is kept, for 10
 * minutes; a number gets at most one call a minute (the slot is taken by one conditional UPDATE, so two
 * requests at once cannot both call). A call the carrier fails to place gives the slot back.
 */
export async function requestVerificationCall(
  db: Db,
  carriers: CarrierRegistry,
  accountId: string,
  id: string,
): Promise<{ row: PhoneNumberRow; expiresAt: Date }> {
  const row = await findPhoneNumber(db, accountId, id);
  if (!row) throw notFound(NUMBER);
  if (row.verifiedAt !== null) throw new AppError(409, 'conflict', PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE);
  const holder = await activeHolder(db, row.number, row.id);
  if (holder !== null) throw activeElsewhere(holder.accountId, accountId);
  const carrier = await openCarrier(carriers, { carrier: row.carrier, carrierSettingsId: row.carrierSettingsId }, 'The number cannot be verified');
  const place = carrier.placeVerificationCall?.bind(carrier);
  if (place === undefined) throw new AppError(422, 'bad_request', VERIFICATION_CALL_UNSUPPORTED_MESSAGE);

  const code = newVerificationCode();
  const [claimed] = await db
    .update(phoneNumbers)
    .set({
      verificationCodeHash: hashCode(code),
      verificationExpiresAt: sql`now() + make_interval(secs => ${VERIFICATION_CODE_TTL_SECONDS})`,
      verificationAttempts: 0,
      verificationRequestedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(phoneNumbers.id, row.id),
        eq(phoneNumbers.accountId, accountId),
        isNull(phoneNumbers.verifiedAt),
        or(
          isNull(phoneNumbers.verificationRequestedAt),
          lt(phoneNumbers.verificationRequestedAt, sql`now() - make_interval(secs => ${VERIFICATION_CALL_INTERVAL_SECONDS})`),
        ),
      ),
    )
    .returning();
  if (!claimed) {
    const now = await findPhoneNumber(db, accountId, id);
    if (!now) throw notFound(NUMBER);
    if (now.verifiedAt !== null) throw new AppError(409, 'conflict', PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE);
    throw new AppError(429, 'rate_limited', VERIFICATION_CALL_TOO_SOON_MESSAGE);
  }
  try {
    await carrierCall(() => place({ from: null, to: row.number, code }), 'The verification call could not be placed. Try again later.');
  } catch (error) {
    await db
      .update(phoneNumbers)
      .set({
        verificationCodeHash: null,
        verificationExpiresAt: null,
        verificationRequestedAt: row.verificationRequestedAt,
      })
      .where(and(eq(phoneNumbers.id, row.id), eq(phoneNumbers.verificationCodeHash, hashCode(code))));
    throw error;
  }
  if (claimed.verificationExpiresAt === null) throw new Error('the verification expiry was not written');
  return { row: claimed, expiresAt: claimed.verificationExpiresAt };
}

type CodeOutcome = { kind: 'verified'; row: PhoneNumberRow } | { kind: 'wrong'; attemptsLeft: number };

/**
 * Checks the code read out by the call. At most 5 wrong codes per call; a wrong one is counted in its own
 * committed transaction before the refusal. The right code verifies the number and makes it active,
 * unless the number is active elsewhere (the active-number index settles a race).
 */
export async function confirmVerificationCode(db: Db, accountId: string, id: string, code: string): Promise<PhoneNumberRow> {
  let outcome: CodeOutcome;
  try {
    outcome = await db.transaction(async (tx): Promise<CodeOutcome> => {
      const row = await lockPhoneNumber(tx, accountId, id);
      if (!row) throw notFound(NUMBER);
      if (row.verifiedAt !== null) throw new AppError(409, 'conflict', PHONE_NUMBER_ALREADY_VERIFIED_MESSAGE);
      if (row.verificationCodeHash === null) throw new AppError(400, 'bad_request', VERIFICATION_NO_CALL_MESSAGE);
      if (row.verificationAttempts >= VERIFICATION_MAX_ATTEMPTS) {
        throw new AppError(429, 'rate_limited', VERIFICATION_TOO_MANY_ATTEMPTS_MESSAGE);
      }
      if (await verificationExpired(tx, row.id)) throw new AppError(400, 'bad_request', VERIFICATION_EXPIRED_MESSAGE);
      if (!sameHash(hashCode(code), row.verificationCodeHash)) {
        const attempts = row.verificationAttempts + 1;
        await tx.update(phoneNumbers).set({ verificationAttempts: attempts }).where(eq(phoneNumbers.id, row.id));
        return { kind: 'wrong', attemptsLeft: VERIFICATION_MAX_ATTEMPTS - attempts };
      }
      const holder = await activeHolder(tx, row.number, row.id);
      if (holder !== null) throw activeElsewhere(holder.accountId, accountId);
      const [verified] = await tx
        .update(phoneNumbers)
        .set({
          status: 'active',
          verifiedAt: sql`now()`,
          verificationCodeHash: null,
          verificationExpiresAt: null,
          verificationAttempts: 0,
          updatedAt: sql`now()`,
        })
        .where(eq(phoneNumbers.id, row.id))
        .returning();
      if (!verified) throw notFound(NUMBER);
      await publishEvent(tx, { type: 'phoneNumberUpdated', accountId, data: { phoneNumber: presentPhoneNumber(verified) } });
      return { kind: 'verified', row: verified };
    });
  } catch (error) {
    if (isActiveNumberViolation(error)) throw new AppError(409, 'conflict', PHONE_NUMBER_ACTIVE_ELSEWHERE_MESSAGE);
    throw error;
  }
  if (outcome.kind === 'verified') return outcome.row;
  const left = outcome.attemptsLeft;
  throw new AppError(
    400,
    'bad_request',
    left > 0
      ? `${VERIFICATION_WRONG_CODE_MESSAGE} ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
      : `${VERIFICATION_WRONG_CODE_MESSAGE} Request a new call.`,
  );
}
