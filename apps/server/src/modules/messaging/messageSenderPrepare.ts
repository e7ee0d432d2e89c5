import { eq, sql } from 'drizzle-orm';
import {
  countSegments,
  isContactTokenField,
  MESSAGE_TEXT_MAX,
  messagePrice,
  MessagePriceUnavailableError,
  moneyToUnits,
  parseTemplate,
  planPricingSchema,
  type PlanPricing,
  type QuietHoursSetting,
  type SmsEncoding,
} from '@parley/shared';
import { assertContactReachable } from '../contacts/index.js';
import type { Tx } from '../../platform/db/client.js';
import { accounts, plans, type ContactRow } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { chooseSenderNumber, type SenderCandidates, type SenderNumber } from './senderNumbers.js';
import type { SendRecipient } from './messageSenderRecipients.js';
import {
  CONVERSATION_CLOSED_MESSAGE,
  CONVERSATION_NUMBER_INACTIVE_MESSAGE,
  MESSAGE_EMPTY_FOR_CONTACT_MESSAGE,
  messageTooLong,
  priceUnavailable,
  type UnsendableRecipient,
} from './messageSenderTypes.js';

/*
 * Everything about a send that needs no writing, worked out in memory for the whole batch: the number each
 * recipient gets its message from, the text for each contact, its segments and its price. Work that depends
 * only on the text or the country is done once per distinct value (a campaign without tokens counts its
 * segments once).
 */

/** What a send needs to know about the account. */
export interface AccountSendContext {
  accountId: string;
  defaultCountry: string;
  /** The balance when the send began, in ten-thousandths: a first check; the debit is the one that counts. */
  balanceUnits: bigint;
  pricing: PlanPricing;
  /** The account's custom attribute names: the tokens besides the contact fields. */
  attributeNames: ReadonlySet<string>;
  quietHours: QuietHoursSetting;
  /** For the trial's end: whether the plan is a trial and when the account was created. */
  trial: { isTrial: boolean; createdAt: Date };
}

/** One round trip: the account, its plan's pricing and its attribute names. */
export async function loadAccountSendContext(tx: Tx, accountId: string): Promise<AccountSendContext> {
  const [row] = await tx
    .select({
      defaultCountry: accounts.defaultCountry,
      balance: accounts.balance,
      pricing: plans.pricing,
      isTrial: plans.isTrial,
      createdAt: accounts.createdAt,
      quietHoursEnabled: accounts.quietHoursEnabled,
      quietHoursStart: accounts.quietHoursStart,
      quietHoursEnd: accounts.quietHoursEnd,
      // Qualified by hand: inside a selected subquery the builder leaves column names bare.
      attributeNames: sql<string[]>`(select coalesce(array_agg(aa.name), '{}')::text[] from account_attributes aa
                                      where aa.account_id = ${accountId})`,
    })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!row) throw notFound('The account');
  return {
    accountId,
    defaultCountry: row.defaultCountry,
    balanceUnits: moneyToUnits(row.balance),
    pricing: planPricingSchema.parse(row.pricing),
    attributeNames: new Set(row.attributeNames),
    quietHours: { enabled: row.quietHoursEnabled, start: row.quietHoursStart, end: row.quietHoursEnd },
    trial: { isTrial: row.isTrial, createdAt: row.createdAt },
  };
}

/** A recipient with the number it is texted from. */
export interface AddressedRecipient {
  recipient: SendRecipient;
  number: SenderNumber;
  /** The group a conversation opened for it belongs to: the filter's group, else the number's. */
  groupId: string | null;
}

const unsendable = (recipient: SendRecipient, error: AppError): UnsendableRecipient => ({
  contactId: recipient.contact.id,
  contact: recipient.contact,
  conversationId: recipient.conversation?.id ?? null,
  error,
});

/** The contact's reason not to be texted (blocked, opted out, invalid), or null. */
function reachabilityError(contact: ContactRow): AppError | null {
  try {
    assertContactReachable(contact);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/**
 * Consent first, then the number: a conversation answers from its own number (while it is open and the
 * number active); a contact from `chooseSenderNumber` among the candidates.
 */
export function addressRecipients(
  recipients: readonly SendRecipient[],
  active: readonly SenderNumber[],
  /** Null only when every recipient is a conversation. */
  candidates: SenderCandidates | null,
): { addressed: AddressedRecipient[]; unsendable: UnsendableRecipient[] } {
  const activeById = new Map(active.map((n) => [n.id, n]));
  const addressed: AddressedRecipient[] = [];
  const refused: UnsendableRecipient[] = [];
  for (const recipient of recipients) {
    const consent = reachabilityError(recipient.contact);
    if (consent !== null) {
      refused.push(unsendable(recipient, consent));
      continue;
    }
    const { conversation } = recipient;
    if (conversation === null) {
      if (candidates === null) throw new Error('a contact to text without sender candidates');
      const choice = candidates;
      const number = chooseSenderNumber(choice, recipient.contact.senderPhoneNumberId);
      addressed.push({ recipient, number, groupId: choice.groupId ?? number.groupId });
      continue;
    }
    const number = conversation.phoneNumberId === null ? undefined : activeById.get(conversation.phoneNumberId);
    if (conversation.closedAt !== null) refused.push(unsendable(recipient, new AppError(409, 'conflict', CONVERSATION_CLOSED_MESSAGE)));
    else if (number === undefined) refused.push(unsendable(recipient, new AppError(409, 'conflict', CONVERSATION_NUMBER_INACTIVE_MESSAGE)));
    else addressed.push({ recipient, number, groupId: number.groupId });
  }
  return { addressed, unsendable: refused };
}

/** A template parsed once and rendered per contact (the rules of templateTokens.ts's renderTemplate). */
export function compileTemplate(template: string, attributeNames: ReadonlySet<string>): (contact: ContactRow) => string {
  const { parts } = parseTemplate(template);
  if (parts.every((p) => p.kind === 'text')) return () => template;
  return (contact) => {
    let out = '';
    for (const part of parts) {
      if (part.kind === 'text') {
        out += part.text;
        continue;
      }
      let value: string | null | undefined;
      if (isContactTokenField(part.name)) {
        value =
          part.name === 'firstName'
            ? contact.firstName
            : part.name === 'lastName'
              ? contact.lastName
              : part.name === 'mobile'
                ? contact.mobileNumber
                : contact.email;
      } else if (attributeNames.has(part.name)) {
        value = Object.hasOwn(contact.attributes, part.name) ? contact.attributes[part.name] : undefined;
      }
      // Unknown tokens and empty values render as nothing.
      if (value != null && value.trim() !== '') out += value;
    }
    return out;
  };
}

/** A message ready to be written. */
export interface PreparedMessage extends AddressedRecipient {
  /** The text as sent (after smart encoding). */
  body: string;
  encoding: SmsEncoding;
  segments: number;
  /** 4 decimals. */
  price: string;
  priceUnits: bigint;
}

interface Counted {
  body: string;
  encoding: SmsEncoding;
  segments: number;
}

/**
 * Renders, counts and prices each message. A text that renders empty (and has no media), is too long, or
 * goes to a country the plan does not price is left out with its reason.
 */
export function prepareMessages(
  context: AccountSendContext,
  addressed: readonly AddressedRecipient[],
  template: string,
  hasMedia: boolean,
): { prepared: PreparedMessage[]; unsendable: UnsendableRecipient[] } {
  const render = compileTemplate(template, context.attributeNames);
  const counts = new Map<string, Counted>();
  const prices = new Map<string, { price: string; units: bigint } | AppError>();
  const prepared: PreparedMessage[] = [];
  const refused: UnsendableRecipient[] = [];

  for (const item of addressed) {
    const { contact } = item.recipient;
    const text = render(contact);
    if (text.trim() === '' && !hasMedia) {
      refused.push(unsendable(item.recipient, new AppError(400, 'bad_request', MESSAGE_EMPTY_FOR_CONTACT_MESSAGE)));
      continue;
    }
    if (text.length > MESSAGE_TEXT_MAX) {
      refused.push(unsendable(item.recipient, messageTooLong(MESSAGE_TEXT_MAX)));
      continue;
    }
    let counted = counts.get(text);
    if (counted === undefined) {
      // A media-only message has no text to split: no segments, one MMS price.
      const count = text === '' ? null : countSegments(text);
      counted = {
        body: count?.replaced ?? text,
        encoding: count?.encoding ?? 'GSM-7',
        segments: count?.segments ?? 0,
      };
      counts.set(text, counted);
    }
    const country = contact.mobileCountry.toUpperCase();
    const priceKey = `${country}|${String(counted.segments)}|${String(hasMedia)}`;
    let price = prices.get(priceKey);
    if (price === undefined) {
      try {
        const amount = messagePrice(context.pricing, country, { segments: counted.segments, mms: hasMedia });
        price = { price: amount, units: moneyToUnits(amount) };
      } catch (error) {
        if (!(error instanceof MessagePriceUnavailableError)) throw error;
        price = priceUnavailable(error.country, error.kind);
      }
      prices.set(priceKey, price);
    }
    if (price instanceof AppError) {
      refused.push(unsendable(item.recipient, price));
      continue;
    }
    prepared.push({ ...item, ...counted, price: price.price, priceUnits: price.units });
  }
  return { prepared, unsendable: refused };
}
