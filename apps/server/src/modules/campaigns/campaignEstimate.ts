import { sql, type SQL } from 'drizzle-orm';
import {
  countSegments,
  isContactTokenField,
  MESSAGE_TEXT_MAX,
  messagePrice,
  MessagePriceUnavailableError,
  moneyToUnits,
  parseTemplate,
  unitsToMoney,
  type CampaignInvalidReason,
} from '@parley/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { ContactRow } from '../../platform/db/schema/index.js';
import { compileTemplate, loadAccountSendContext, type AccountSendContext } from '../messaging/index.js';
import { MESSAGE_EMPTY_FOR_CONTACT_MESSAGE, messageTooLong, priceUnavailable } from '../messaging/index.js';

/*
 * What a campaign costs, priced exactly as messageSender charges (messageSenderPrepare.ts): the template
 * rendered for each contact by the sender's own compileTemplate, segments by countSegments, the price of the
 * contact's country on the plan (one MMS price with media). A message the sender would refuse (empty for
 * this contact, too long, no price for the country) is left out here too, with its reason, so the estimate
 * is what execution charges when nothing changes in between. Work is done once per distinct text and per
 * country; a template without tokens is one text, priced per country straight from a GROUP BY.
 */

export interface CampaignMessage {
  template: string;
  hasMedia: boolean;
}

/** A contact the message cannot go to, and why. */
export interface RefusedRecipient {
  contactId: string;
  mobile: string;
  reason: Extract<CampaignInvalidReason, 'emptyMessage' | 'messageTooLong' | 'noPrice'>;
  description: string;
}

export interface CampaignEstimate {
  /** Contacts the message would go to. */
  recipients: number;
  /** Their total, 4 decimals. */
  price: string;
  refused: RefusedRecipient[];
}

type Priced = { units: bigint } | { reason: RefusedRecipient['reason']; description: string };

/** The contact columns the rendering reads. */
type RenderedContact = Pick<ContactRow, 'id' | 'mobileNumber' | 'mobileCountry' | 'firstName' | 'lastName' | 'email' | 'attributes'>;

/** Prices one campaign message per contact, remembering each text's count and each country's price. */
export class CampaignPricer {
  /** Whether the text differs from contact to contact (it has tokens). */
  readonly personal: boolean;
  private readonly render: (contact: ContactRow) => string;
  private readonly counts = new Map<string, { segments: number } | Priced>();
  private readonly prices = new Map<string, Priced>();

  constructor(
    readonly context: AccountSendContext,
    readonly message: CampaignMessage,
  ) {
    this.personal = parseTemplate(message.template).tokens.length > 0;
    this.render = compileTemplate(message.template, context.attributeNames);
  }

  /** The price of the message to this contact, or why it cannot go. */
  priceFor(contact: RenderedContact): Priced {
    // compileTemplate reads only the rendered fields (names, mobile, e-mail, attributes).
    return this.priceText(this.render(contact as ContactRow), contact.mobileCountry);
  }

  /** The same for a text already rendered, to a country. */
  priceText(text: string, country: string): Priced {
    let counted = this.counts.get(text);
    if (counted === undefined) {
      if (text.trim() === '' && !this.message.hasMedia) counted = { reason: 'emptyMessage', description: MESSAGE_EMPTY_FOR_CONTACT_MESSAGE };
      else if (text.length > MESSAGE_TEXT_MAX) counted = { reason: 'messageTooLong', description: messageTooLong(MESSAGE_TEXT_MAX).message };
      // A media-only message has no text to split: no segments, one MMS price.
      else counted = { segments: text === '' ? 0 : countSegments(text).segments };
      this.counts.set(text, counted);
    }
    if (!('segments' in counted)) return counted;
    const code = country.toUpperCase();
    const key = `${code}|${String(counted.segments)}`;
    let price = this.prices.get(key);
    if (price === undefined) {
      try {
        price = { units: moneyToUnits(messagePrice(this.context.pricing, code, { segments: counted.segments, mms: this.message.hasMedia })) };
      } catch (error) {
        if (!(error instanceof MessagePriceUnavailableError)) throw error;
        price = { reason: 'noPrice', description: priceUnavailable(error.country, error.kind).message };
      }
      this.prices.set(key, price);
    }
    return price;
  }
}

/**
 * The estimate for the contacts `ids` selects (a subquery of contact ids of the account), in the caller's
 * transaction.
 */
export async function estimateCampaign(tx: Tx, accountId: string, ids: SQL, message: CampaignMessage): Promise<CampaignEstimate> {
  return estimateWith(tx, new CampaignPricer(await loadAccountSendContext(tx, accountId), message), ids);
}

/** The same with a pricer already made (one for all the chunks of an execution's audience). */
export async function estimateWith(tx: Tx, pricer: CampaignPricer, ids: SQL): Promise<CampaignEstimate> {
  const { accountId } = pricer.context;
  const message = pricer.message;
  let units = 0n;
  let recipients = 0;
  const refused: RefusedRecipient[] = [];
  const refuse = (contact: { id: string; mobile: string }, why: Exclude<Priced, { units: bigint }>): void => {
    refused.push({ contactId: contact.id, mobile: contact.mobile, reason: why.reason, description: why.description });
  };

  if (!pricer.personal) {
    const countries = await queryRows<{ country: string; n: number }>(
      tx,
      sql`select upper(mobile_country) as country, count(*)::int as n from contacts
           where account_id = ${accountId} and id in (${ids}) group by 1`,
    );
    const refusedCountries: string[] = [];
    for (const { country, n } of countries) {
      const priced = pricer.priceText(message.template, country);
      if ('units' in priced) {
        units += priced.units * BigInt(n);
        recipients += n;
      } else refusedCountries.push(country);
    }
    if (refusedCountries.length > 0) {
      const left = await queryRows<{ id: string; mobile: string; country: string }>(
        tx,
        sql`select id, mobile_number as mobile, mobile_country as country from contacts
             where account_id = ${accountId} and id in (${ids})
               and upper(mobile_country) in (select jsonb_array_elements_text(${JSON.stringify(refusedCountries)}::jsonb))
             order by id`,
      );
      for (const contact of left) {
        const priced = pricer.priceText(message.template, contact.country);
        if (!('units' in priced)) refuse(contact, priced);
      }
    }
    return { recipients, price: unitsToMoney(units), refused };
  }

  // Only the columns the tokens name leave the database (a large audience is read whole).
  const names = new Set(parseTemplate(message.template).tokens.map((t) => t.name));
  const column = (wanted: boolean, name: string, empty: SQL): SQL => (wanted ? sql.raw(name) : empty);
  const rows = await queryRows<{
    id: string;
    mobile: string;
    country: string;
    first_name: string;
    last_name: string;
    email: string | null;
    attributes: Record<string, string>;
  }>(
    tx,
    sql`select id, mobile_number as mobile, mobile_country as country,
               ${column(names.has('firstName'), 'first_name', sql`''`)} as first_name,
               ${column(names.has('lastName'), 'last_name', sql`''`)} as last_name,
               ${column(names.has('email'), 'email', sql`null`)} as email,
               ${column([...names].some((n) => !isContactTokenField(n)), 'attributes', sql`'{}'::jsonb`)} as attributes
          from contacts where account_id = ${accountId} and id in (${ids})`,
  );
  for (const row of rows) {
    const priced = pricer.priceFor({
      id: row.id,
      mobileNumber: row.mobile,
      mobileCountry: row.country,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      attributes: row.attributes,
    });
    if ('units' in priced) {
      units += priced.units;
      recipients += 1;
    } else refuse(row, priced);
  }
  refused.sort((a, b) => (a.contactId < b.contactId ? -1 : a.contactId > b.contactId ? 1 : 0));
  return { recipients, price: unitsToMoney(units), refused };
}
