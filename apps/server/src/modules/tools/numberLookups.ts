import { and, eq, gt } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import {
  LOOKUP_NUMBER_INVALID,
  NUMBER_LOOKUP_CACHE_DAYS,
  NUMBER_LOOKUP_PRICES,
  nameSuggestions,
  normaliseContactMobile,
  type CarrierLookup,
  type LineType,
  type NameLookup,
  type NumberLookupKind,
  type NumberLookupQuery,
  type NumberLookupSource,
} from '@parley/shared';
import type { LookupsConfig } from '../../platform/config.js';
import type { Db } from '../../platform/db/client.js';
import { numberLookups } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { debitAccount, loadAccount, refundAccount } from '../billing/index.js';
import { inventoryCountryOf } from '../carriers/index.js';
import { holderNameOfNumber } from '../phoneNumbers/index.js';
import { rangeCarrier, rangeLineType } from './offlineLookup.js';
import { TwilioLookup } from './twilioLookup.js';

/*
 * Carrier and caller-name lookups (docs/tools.md). Who answers, in this order: the simulated network for its
 * own numbers (free); without a provider, libphonenumber's range data (free; no caller names); with Twilio,
 * its Lookup v2, whose answer is kept NUMBER_LOOKUP_CACHE_DAYS and charged to the account once per answer.
 * The charge comes first, so a refused charge never reaches the provider, and is given back when the
 * provider fails: an account pays only for answers.
 */

export const SIMULATED_CARRIER = 'Parley simulated network';
const DAY_MS = 86_400_000;

export interface LookupDeps {
  db: Db;
  lookups: LookupsConfig;
  now?: Date;
}

interface Answer<T> {
  number: string;
  country: string;
  source: NumberLookupSource;
  cached: boolean;
  charged: string;
  lookedUpAt: string;
  result: T;
}

/** The number as E.164 and its country, read with the query's country or the account's default one. */
async function numberOf(db: Db, accountId: string, query: NumberLookupQuery): Promise<{ number: string; country: string }> {
  const account = await loadAccount(db, accountId);
  if (account === null) throw notFound('The account');
  const parsed = normaliseContactMobile(query.number, query.country ?? null, account.account.defaultCountry);
  if (!parsed.valid) throw new AppError(400, 'validation_failed', LOOKUP_NUMBER_INVALID);
  return { number: parsed.number, country: parsed.country };
}

const chargeKey = (kind: NumberLookupKind, answerId: string): string => `lookup:${kind}:${answerId}`;

/** The provider's answer of `kind` for the number while it is fresh (NUMBER_LOOKUP_CACHE_DAYS), else null. */
async function keptAnswer(db: Db, number: string, kind: NumberLookupKind, now: Date): Promise<typeof numberLookups.$inferSelect | null> {
  const [kept] = await db
    .select()
    .from(numberLookups)
    .where(
      and(
        eq(numberLookups.number, number),
        eq(numberLookups.kind, kind),
        gt(numberLookups.lookedUpAt, new Date(now.getTime() - NUMBER_LOOKUP_CACHE_DAYS * DAY_MS)),
      ),
    )
    .limit(1);
  return kept ?? null;
}

async function keepAnswer(db: Db, id: string, number: string, kind: NumberLookupKind, result: unknown, now: Date): Promise<void> {
  await db
    .insert(numberLookups)
    .values({ id, number, kind, source: 'twilio', result, lookedUpAt: now })
    .onConflictDoUpdate({ target: [numberLookups.number, numberLookups.kind], set: { id, source: 'twilio', result, lookedUpAt: now } });
}

/** The provider's answer of `kind` for the number: the kept one while fresh, else a new one asked and kept. */
async function providerAnswer<T>(
  deps: LookupDeps,
  accountId: string,
  target: { number: string; country: string },
  kind: NumberLookupKind,
  ask: () => Promise<T>,
): Promise<Answer<T>> {
  const now = deps.now ?? new Date();
  const price = NUMBER_LOOKUP_PRICES[kind];
  const description = `${kind === 'carrier' ? 'Carrier' : 'Name'} lookup ${target.number}`;
  const kept = await keptAnswer(deps.db, target.number, kind, now);
  if (kept) {
    const entry = await deps.db.transaction((tx) => debitAccount(tx, { accountId, amount: price, description, idempotencyKey: chargeKey(kind, kept.id), now }));
    return { ...target, source: 'twilio', cached: true, charged: entry.duplicate ? '0.0000' : price, lookedUpAt: kept.lookedUpAt.toISOString(), result: kept.result as T };
  }
  const id = uuidv7();
  const key = chargeKey(kind, id);
  await deps.db.transaction((tx) => debitAccount(tx, { accountId, amount: price, description, idempotencyKey: key, now }));
  let result: T;
  try {
    result = await ask();
  } catch (error) {
    await deps.db.transaction((tx) => refundAccount(tx, { accountId, amount: price, description: `${description}: not answered`, idempotencyKey: `${key}:refund` }));
    throw error;
  }
  await keepAnswer(deps.db, id, target.number, kind, result, now);
  return { ...target, source: 'twilio', cached: false, charged: price, lookedUpAt: now.toISOString(), result };
}

const free = <T>(target: { number: string; country: string }, source: NumberLookupSource, now: Date, result: T): Answer<T> => ({
  ...target,
  source,
  cached: false,
  charged: '0.0000',
  lookedUpAt: now.toISOString(),
  result,
});

const twilioOf = (lookups: LookupsConfig): TwilioLookup | null =>
  lookups.provider === 'twilio' ? new TwilioLookup({ baseUrl: lookups.baseUrl, accountSid: lookups.accountSid, authToken: lookups.authToken }) : null;

/** GET tools/carrierlookup: the number's line type and carrier. */
export async function lookUpCarrier(deps: LookupDeps, accountId: string, query: NumberLookupQuery): Promise<CarrierLookup> {
  const target = await numberOf(deps.db, accountId, query);
  const now = deps.now ?? new Date();
  const provider = twilioOf(deps.lookups);
  let answer: Answer<{ carrier: string | null; type: LineType }>;
  if (inventoryCountryOf(target.number) !== null) {
    answer = free(target, 'simulator', now, { carrier: SIMULATED_CARRIER, type: rangeLineType(target.number) });
  } else if (provider === null) {
    answer = free(target, 'offline', now, { carrier: await rangeCarrier(target.number), type: rangeLineType(target.number) });
  } else {
    answer = await providerAnswer(deps, accountId, target, 'carrier', () => provider.lineType(target.number));
  }
  const { result, ...rest } = answer;
  return { ...rest, carrier: result.carrier, type: result.type };
}

/** GET tools/namelookup: the caller name registered for the number, and the names it may stand for. */
export async function lookUpName(deps: LookupDeps, accountId: string, query: NumberLookupQuery): Promise<NameLookup> {
  const target = await numberOf(deps.db, accountId, query);
  const now = deps.now ?? new Date();
  const provider = twilioOf(deps.lookups);
  let answer: Answer<{ name: string | null }>;
  if (inventoryCountryOf(target.number) !== null) {
    answer = free(target, 'simulator', now, { name: await holderNameOfNumber(deps.db, target.number) });
  } else if (provider === null) {
    // Range data holds no names: without a provider there is nothing to say of a real number.
    answer = free(target, 'offline', now, { name: null });
  } else {
    answer = await providerAnswer(deps, accountId, target, 'name', () => provider.callerName(target.number));
  }
  const { result, ...rest } = answer;
  return { ...rest, name: result.name, suggestions: nameSuggestions(result.name) };
}

/** Who gave a contact's number type: the provider, the simulated network, or the range data when no provider is configured. */
export type NumberTypeAnswer = { lineType: LineType; source: 'provider' | 'simulator' | 'range' };

/**
 * The line type of an E.164 number for a contact's number type (docs/decisions.md, "Validate phone number
 * type"). No lookup charge here: the contact's own check has paid its cent. The provider's answer is the one
 * the carrier lookup keeps, and is kept for it in turn; a provider that fails throws, and nothing is kept.
 */
export async function lineTypeForContact(deps: LookupDeps, number: string): Promise<NumberTypeAnswer> {
  const provider = twilioOf(deps.lookups);
  if (inventoryCountryOf(number) !== null) return { lineType: rangeLineType(number), source: 'simulator' };
  if (provider === null) return { lineType: rangeLineType(number), source: 'range' };
  const now = deps.now ?? new Date();
  const kept = await keptAnswer(deps.db, number, 'carrier', now);
  if (kept) return { lineType: (kept.result as { type: LineType }).type, source: 'provider' };
  const result = await provider.lineType(number);
  await keepAnswer(deps.db, uuidv7(), number, 'carrier', result, now);
  return { lineType: result.type, source: 'provider' };
}
