import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { PHONE_NUMBERS_TRIAL_MESSAGE, type PhoneNumberType } from '@parley/shared';
import { loadAccount, type AccountWithPlan } from '../billing/index.js';
import type { Carrier, CarrierCapabilities, CarrierName } from '../carriers/index.js';
import { CarrierUnavailableError, type CarrierRegistry, type NumberCarrierRef } from '../carriers/index.js';
import { defaultSimulatorSettings } from '../carriers/index.js';
import type { Queryable } from '../../platform/db/client.js';
import { AppError, notFound } from '../../platform/errors.js';
import { simulatorRate } from './queries.js';

/** The adapter of a number, or a 422 saying why there is none (`doing`: what could not be done). */
export async function openCarrier(carriers: CarrierRegistry, ref: NumberCarrierRef, doing: string): Promise<Carrier> {
  try {
    return await carriers.forNumber(ref);
  } catch (error) {
    if (error instanceof CarrierUnavailableError) throw new AppError(422, 'bad_request', `${doing}: ${error.message}.`);
    throw error;
  }
}

/** A carrier call that failed unexpectedly (network, the carrier's own error) answers 502, logged by the caller. */
export class CarrierCallError extends AppError {
  constructor(
    message: string,
    readonly reason: unknown,
  ) {
    super(502, 'internal_error', message);
    this.name = 'CarrierCallError';
  }
}

export async function carrierCall<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new CarrierCallError(message, error);
  }
}

/**
 * The rate a new number of this carrier sends at: what the connection states, else the simulator's
 * settings for simulator numbers (their defaults before anyone saved them), else 1 message a second.
 */
export async function rateFor(q: Queryable, carrier: CarrierName, capabilities: CarrierCapabilities | null): Promise<number> {
  const stated = capabilities?.maxSubmitsPerSecond ?? null;
  if (stated !== null && stated > 0) return Math.floor(stated);
  if (carrier === 'simulator') return (await simulatorRate(q)) ?? defaultSimulatorSettings.messagesPerSecond;
  return 1;
}

/** libphonenumber's kind of a number, as our number types: toll-free or an ordinary long code. */
export function typeOfNumber(e164: string): PhoneNumberType {
  return parsePhoneNumberFromString(e164)?.getType() === 'TOLL_FREE' ? 'tollfree' : 'longcode';
}

/** The open account; trial plans may not add numbers (the Add button is hidden for them, docs/permissions.md). */
export async function accountThatMayAddNumbers(q: Queryable, accountId: string): Promise<AccountWithPlan> {
  const found = await loadAccount(q, accountId);
  if (!found) throw notFound('The account');
  if (found.plan.isTrial) throw new AppError(403, 'forbidden', PHONE_NUMBERS_TRIAL_MESSAGE);
  return found;
}

/** The carrier new numbers come from: the deployment's default connection. */
export const defaultCarrierRef = (carriers: CarrierRegistry): NumberCarrierRef => ({
  carrier: carriers.defaultCarrier,
  carrierSettingsId: null,
});

/** Two writes of one number racing past the checks meet the active-number index. */
export function isActiveNumberViolation(error: unknown): boolean {
  for (let e: unknown = error; typeof e === 'object' && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505' && (constraint === undefined || constraint === 'phone_numbers_active_number_idx')) return true;
  }
  return false;
}
