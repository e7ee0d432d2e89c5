import { z } from 'zod';
import { moneySchema } from './money.js';

// ---------------------------------------------------------------------------------------------------
// Number lookups: carrier (line type) and caller name (docs/tools.md)

/** What a lookup the provider answers costs the account, charged through the ledger; offline answers are free. */
export const NUMBER_LOOKUP_PRICES = { carrier: '0.0100', name: '0.0100' } as const;

/** How long a provider's answer is kept and served again, for this account free of charge. */
export const NUMBER_LOOKUP_CACHE_DAYS = 30;

export const numberLookupKinds = ['carrier', 'name'] as const;
export type NumberLookupKind = (typeof numberLookupKinds)[number];

/** Who answered: the number's range in libphonenumber's data, the lookup provider, or the simulated network. */
export const numberLookupSources = ['offline', 'twilio', 'simulator'] as const;
export type NumberLookupSource = (typeof numberLookupSources)[number];

export const lineTypes = [
  'mobile',
  'landline',
  'fixedOrMobile',
  'voip',
  'tollFree',
  'premium',
  'sharedCost',
  'personal',
  'pager',
  'uan',
  'voicemail',
  'unknown',
] as const;
export type LineType = (typeof lineTypes)[number];

/** libphonenumber's number types (a contact's `numberType`, a range's type) as line types. */
const numberTypeLineTypes: Readonly<Record<string, LineType>> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'landline',
  FIXED_LINE_OR_MOBILE: 'fixedOrMobile',
  VOIP: 'voip',
  TOLL_FREE: 'tollFree',
  PREMIUM_RATE: 'premium',
  SHARED_COST: 'sharedCost',
  PERSONAL_NUMBER: 'personal',
  PAGER: 'pager',
  UAN: 'uan',
  VOICEMAIL: 'voicemail',
};

/** The line type of a libphonenumber number type ('unknown' for none or one it does not name). */
export const lineTypeOfNumberType = (type: string | undefined): LineType => (type === undefined ? undefined : numberTypeLineTypes[type]) ?? 'unknown';

/** A line type a lookup answered, as the libphonenumber number type a contact's `numberType` holds ('UNKNOWN' when none fits). */
export const numberTypeOfLineType = (lineType: LineType): string =>
  Object.entries(numberTypeLineTypes).find(([, line]) => line === lineType)?.[0] ?? 'UNKNOWN';

/** How the pages name a line type. */
export const lineTypeLabels: Record<LineType, string> = {
  mobile: 'Mobile',
  landline: 'Landline',
  fixedOrMobile: 'Landline or mobile',
  voip: 'VoIP',
  tollFree: 'Toll-free',
  premium: 'Premium rate',
  sharedCost: 'Shared cost',
  personal: 'Personal number',
  pager: 'Pager',
  uan: 'Universal access number',
  voicemail: 'Voicemail',
  unknown: 'Unknown',
};

export const LOOKUP_NUMBER_REQUIRED = 'Number is required';
export const LOOKUP_NUMBER_INVALID = 'Enter a valid phone number for the country chosen';
export const NAME_UNAVAILABLE = 'Name is unavailable';
export const NO_NAME_DATA = 'No data found';

/** GET tools/carrierlookup and tools/namelookup: the number as people type it, and its country (ISO) unless it starts with +. */
export const numberLookupQuerySchema = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'Country is not valid')
    .optional(),
  number: z.string().trim().min(1, LOOKUP_NUMBER_REQUIRED).max(40, LOOKUP_NUMBER_INVALID),
});
export type NumberLookupQuery = z.infer<typeof numberLookupQuerySchema>;

/** The hosted product's paths name no account: the token's, or the one `accountId` names. */
export const contractNumberLookupQuerySchema = numberLookupQuerySchema.extend({ accountId: z.uuid().optional() });

const lookupCommon = {
  /** E.164. */
  number: z.string(),
  country: z.string(),
  source: z.enum(numberLookupSources),
  /** True when the answer is the provider's earlier one, kept up to NUMBER_LOOKUP_CACHE_DAYS. */
  cached: z.boolean(),
  /** What this lookup took from the balance ('0.0000' when nothing). */
  charged: moneySchema,
  lookedUpAt: z.string(),
};

export const carrierLookupSchema = z
  .object({ ...lookupCommon, carrier: z.string().nullable(), type: z.enum(lineTypes) })
  .meta({ id: 'CarrierLookup' });
export type CarrierLookup = z.infer<typeof carrierLookupSchema>;

export const nameSuggestionSchema = z.object({ firstName: z.string(), lastName: z.string() });
export type NameSuggestion = z.infer<typeof nameSuggestionSchema>;

export const nameLookupSchema = z
  .object({ ...lookupCommon, name: z.string().nullable(), suggestions: z.array(nameSuggestionSchema) })
  .meta({ id: 'NameLookup' });
export type NameLookup = z.infer<typeof nameLookupSchema>;

export const carrierLookupResponseSchema = z.object({ success: z.literal(true), data: carrierLookupSchema });
export const nameLookupResponseSchema = z.object({ success: z.literal(true), data: nameLookupSchema });

/** What the pages say before a lookup: who answers and what it costs. */
export const lookupSettingsSchema = z
  .object({
    provider: z.enum(['offline', 'twilio']),
    prices: z.object({ carrier: moneySchema, name: moneySchema }),
    cacheDays: z.number().int(),
  })
  .meta({ id: 'LookupSettings' });
export type LookupSettings = z.infer<typeof lookupSettingsSchema>;

/**
 * The first and last name a caller name may stand for. Caller-name registries mostly hold "LAST,FIRST" or
 * "First Last", often in capitals: both readings are offered when the text allows them, capitals softened.
 */
export function nameSuggestions(name: string | null): NameSuggestion[] {
  if (name === null) return [];
  const soften = (part: string): string =>
    part === part.toUpperCase() ? part.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase()) : part;
  const cleaned = name.trim().replace(/\s+/g, ' ');
  if (cleaned === '') return [];
  const out: NameSuggestion[] = [];
  const add = (firstName: string, lastName: string): void => {
    const first = soften(firstName.trim());
    const last = soften(lastName.trim());
    if (first === '' && last === '') return;
    if (!out.some((s) => s.firstName === first && s.lastName === last)) out.push({ firstName: first, lastName: last });
  };
  const comma = cleaned.indexOf(',');
  if (comma >= 0) {
    add(cleaned.slice(comma + 1), cleaned.slice(0, comma));
    return out;
  }
  const words = cleaned.split(' ');
  if (words.length === 1) {
    add(words[0] ?? '', '');
    return out;
  }
  add(words.slice(0, -1).join(' '), words.at(-1) ?? '');
  add(words.slice(1).join(' '), words[0] ?? '');
  return out;
}
