import { z } from 'zod';

/**
 * The few calls of Twilio's REST API (2010-04-01) the adapter makes, over Node's fetch. The `twilio` package's
 * REST client is not used in production: it pins its hosts (api.twilio.com, with region/edge variants) and
 * brings a large dependency for three requests; fetch with a configurable base URL lets tests run against a
 * local peer answering as the documented API.
 */

export interface TwilioRestOptions {
  accountSid: string;
  authToken: string;
  apiBaseUrl: string;
  /** How long one request may take before it is abandoned. */
  timeoutMs: number;
}

/** Twilio's documented error body: `{ code, message, more_info, status }`. */
const errorBodySchema = z.object({
  code: z.number().int().nullish(),
  message: z.string().nullish(),
  status: z.number().int().nullish(),
});

/** A non-2xx answer from Twilio, with its numeric error code when the body carried one. */
export class TwilioApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'TwilioApiError';
  }

  /** A throttle (429) or a fault on Twilio's side (5xx): the same request may succeed later. */
  get retryable(): boolean {
    return this.httpStatus === 429 || this.httpStatus >= 500;
  }
}

export type FormFields = [string, string][];

export class TwilioRest {
  constructor(private readonly options: TwilioRestOptions) {}

  /** Calls `{apiBaseUrl}/2010-04-01/Accounts/{AccountSid}{path}`; resolves with the parsed JSON of a 2xx answer. */
  async request<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    fields: FormFields = [],
  ): Promise<T> {
    const base = this.options.apiBaseUrl.replace(/\/+$/, '');
    const url = new URL(`${base}/2010-04-01/Accounts/${encodeURIComponent(this.options.accountSid)}${path}`);
    const headers: Record<string, string> = {
      authorization: `Basic ${Buffer.from(`${this.options.accountSid}:${this.options.authToken}`).toString('base64')}`,
      accept: 'application/json',
    };
    let body: string | undefined;
    if (method === 'GET') {
      for (const [name, value] of fields) url.searchParams.append(name, value);
    } else {
      // URLSearchParams keeps repeated names (MediaUrl for each media item), as Twilio expects.
      body = new URLSearchParams(fields).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(url, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const text = await response.text();
    const json = parseJson(text);
    if (!response.ok) {
      const parsed = errorBodySchema.safeParse(json);
      const code = parsed.success ? (parsed.data.code ?? null) : null;
      const message = parsed.success && parsed.data.message ? parsed.data.message : `HTTP ${response.status}`;
      throw new TwilioApiError(response.status, code, message);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new TwilioApiError(response.status, null, `Unexpected answer from Twilio for ${method} ${path}`);
    }
    return parsed.data;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
