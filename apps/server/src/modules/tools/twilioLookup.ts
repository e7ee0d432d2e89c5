import { z } from 'zod';
import type { LineType } from '@parley/shared';
import { AppError } from '../../platform/errors.js';

/*
 * Twilio Lookup v2 (GET {base}/v2/PhoneNumbers/{number}?Fields=...), over Node's fetch with the deployment's
 * account credentials, as the Twilio carrier adapter speaks to Twilio (docs/carriers.md, "Twilio"): the base
 * URL comes from the configuration, so tests run against a local peer answering as the documented API.
 */

export interface TwilioLookupOptions {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  timeoutMs?: number;
}

const lineTypeIntelligenceSchema = z.object({
  carrier_name: z.string().nullish(),
  type: z.string().nullish(),
  error_code: z.number().int().nullish(),
});
const callerNameSchema = z.object({
  caller_name: z.string().nullish(),
  caller_type: z.string().nullish(),
  error_code: z.number().int().nullish(),
});
const lookupSchema = z.object({
  phone_number: z.string(),
  valid: z.boolean().nullish(),
  line_type_intelligence: lineTypeIntelligenceSchema.nullish(),
  caller_name: callerNameSchema.nullish(),
});
const errorSchema = z.object({ code: z.number().int().nullish(), message: z.string().nullish() });

/** Twilio's line types in the product's words. */
const twilioLineTypes: Readonly<Record<string, LineType>> = {
  mobile: 'mobile',
  landline: 'landline',
  fixedVoip: 'voip',
  nonFixedVoip: 'voip',
  personal: 'personal',
  tollFree: 'tollFree',
  premium: 'premium',
  sharedCost: 'sharedCost',
  uan: 'uan',
  voicemail: 'voicemail',
  pager: 'pager',
};

export const LOOKUP_PROVIDER_FAILED = 'The lookup provider could not answer. Try again in a minute; nothing was charged.';

export class TwilioLookup {
  constructor(private readonly options: TwilioLookupOptions) {}

  async lineType(number: string): Promise<{ carrier: string | null; type: LineType }> {
    const found = await this.ask(number, 'line_type_intelligence');
    const intelligence = found.line_type_intelligence;
    return {
      carrier: intelligence?.carrier_name ?? null,
      type: twilioLineTypes[intelligence?.type ?? ''] ?? 'unknown',
    };
  }

  async callerName(number: string): Promise<{ name: string | null }> {
    const found = await this.ask(number, 'caller_name');
    const name = found.caller_name?.caller_name?.trim() ?? '';
    return { name: name === '' ? null : name };
  }

  private async ask(number: string, field: string): Promise<z.infer<typeof lookupSchema>> {
    const url = `${this.options.baseUrl}/v2/PhoneNumbers/${encodeURIComponent(number)}?Fields=${field}`;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          authorization: `Basic ${Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64')}`,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch {
      throw new AppError(502, 'internal_error', LOOKUP_PROVIDER_FAILED);
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = errorSchema.safeParse(body);
      const detail = error.success && error.data.message ? ` (${error.data.message})` : '';
      throw new AppError(502, 'internal_error', `${LOOKUP_PROVIDER_FAILED}${detail}`);
    }
    const parsed = lookupSchema.safeParse(body);
    if (!parsed.success) throw new AppError(502, 'internal_error', LOOKUP_PROVIDER_FAILED);
    return parsed.data;
  }
}
