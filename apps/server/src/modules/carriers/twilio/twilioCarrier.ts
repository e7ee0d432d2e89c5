import { z } from 'zod';
import type {
  AvailableNumber,
  BridgedCall,
  Carrier,
  CarrierCapabilities,
  CarrierHandlers,
  OutboundMessage,
  SubmitResult,
} from '../carrier.js';
import { carrierMediaUrl } from '../../media/index.js';
import { TwilioApiError, TwilioRest, type FormFields } from './twilioRest.js';
import { dialTwiml } from './twiml.js';

export interface TwilioCarrierOptions {
  accountSid: string;
  authToken: string;
  /** Defaults to https://api.twilio.com. */
  apiBaseUrl?: string;
  /** Our public status callback URL (from PUBLIC_URL), sent with each message. */
  statusCallbackUrl: string;
  /** Our public inbound URL (from PUBLIC_URL), set as the SmsUrl of numbers bought through the adapter. */
  inboundUrl: string;
  /** Our public incoming-call URL, set as the VoiceUrl of numbers bought through the adapter (docs/calls.md). */
  voiceUrl?: string;
  /** Our public call status URL: click-to-call's status callbacks and Dial actions, with `?call=<id>` (docs/calls.md). */
  callStatusUrl?: string;
  /** Per request; defaults to 15 s. */
  requestTimeoutMs?: number;
  /** A number of the account that verification calls come from; unset: the `from` of each call. */
  callerId?: string | null;
}

const messageSchema = z.object({ sid: z.string().min(1) });

const capabilitiesSchema = z.record(z.string(), z.boolean().nullish());

const availableNumbersSchema = z.object({
  available_phone_numbers: z.array(
    z.object({
      phone_number: z.string(),
      iso_country: z.string(),
      capabilities: capabilitiesSchema.nullish(),
    }),
  ),
});

const incomingNumberSchema = z.object({ sid: z.string().min(1) });

const callSchema = z.object({ sid: z.string().min(1) });

/**
 * What the verification call says: the code digit by digit (a pause between digits, so text-to-speech does
 * not read "123456" as a number), twice.
 */
export function verificationTwiml(code: string): string {
  if (!/^\d{4,10}$/.test(code)) throw new Error('A verification code is 4 to 10 digits');
  const digits = code.split('').join(', ');
  return (
    '<?xml version="1.0" encoding="UTF-8"?><Response>' +
    `<Say>Your verification code is: ${digits}.</Say><Pause length="1"/>` +
    `<Say>Again, your code is: ${digits}.</Say></Response>`
  );
}

/** Twilio's REST API: messages out through `Messages.json`, receipts and inbound messages in through webhooks. */
export class TwilioCarrier implements Carrier {
  readonly name = 'twilio';
  readonly capabilities: CarrierCapabilities = {
    sms: true,
    mms: true,
    numberInventory: true,
    // Twilio queues per sender itself; the rate belongs to each number (and its type), not to the connection.
    maxSubmitsPerSecond: null,
    idempotentSubmit: false,
  };

  private readonly rest: TwilioRest;
  private stopped = false;
  private readonly inFlight = new Set<Promise<SubmitResult>>();

  constructor(private readonly options: TwilioCarrierOptions) {
    this.rest = new TwilioRest({
      accountSid: options.accountSid,
      authToken: options.authToken,
      apiBaseUrl: options.apiBaseUrl ?? 'https://api.twilio.com',
      timeoutMs: options.requestTimeoutMs ?? 15_000,
    });
  }

  /** Nothing to connect: receipts and inbound messages arrive as webhooks, which the HTTP layer verifies and parses. */
  start(_handlers: CarrierHandlers): Promise<void> {
    this.stopped = false;
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.inFlight]);
  }

  send(message: OutboundMessage): Promise<SubmitResult> {
    if (this.stopped) {
      return Promise.resolve({ accepted: false, retryable: true, errorCode: 'stopped', errorText: 'The carrier is stopping' });
    }
    const submit = this.submit(message);
    this.inFlight.add(submit);
    void submit.finally(() => this.inFlight.delete(submit));
    return submit;
  }

  private async submit(message: OutboundMessage): Promise<SubmitResult> {
    // Our own uploads need a token; Twilio gets an expiring signed URL of each instead.
    let mediaUrls: string[];
    try {
      mediaUrls = await Promise.all(message.media.map((item) => carrierMediaUrl(item.url, { accountId: message.accountId })));
    } catch (error) {
      return { accepted: false, retryable: true, errorCode: 'media', errorText: `The media could not be signed: ${errorText(error)}` };
    }
    const fields: FormFields = [
      ['To', message.to],
      ['From', message.from],
      ['Body', message.text],
      ['StatusCallback', this.options.statusCallbackUrl],
      ...mediaUrls.map((url): [string, string] => ['MediaUrl', url]),
    ];
    try {
      const created = await this.rest.request('POST', '/Messages.json', messageSchema, fields);
      return { accepted: true, carrierMessageId: created.sid };
    } catch (error) {
      if (error instanceof TwilioApiError) {
        return {
          accepted: false,
          retryable: error.retryable,
          errorCode: error.code === null ? `http_${String(error.httpStatus)}` : String(error.code),
          errorText: error.message,
        };
      }
      // No answer (refused connection, timeout): Twilio may or may not hold the message; the engine retries.
      return { accepted: false, retryable: true, errorCode: 'connection', errorText: errorText(error) };
    }
  }

  async availableNumbers(query: { country: string; limit: number }): Promise<AvailableNumber[]> {
    const country = query.country.toUpperCase();
    const mobile = await this.searchNumbers(country, 'Mobile', query.limit);
    // Many countries (the US among them) sell SMS numbers as Local only; Mobile answers 404 or nothing there.
    const found = mobile.length > 0 ? mobile : await this.searchNumbers(country, 'Local', query.limit);
    return found.slice(0, query.limit);
  }

  private async searchNumbers(country: string, type: 'Mobile' | 'Local', limit: number): Promise<AvailableNumber[]> {
    try {
      const page = await this.rest.request(
        'GET',
        `/AvailablePhoneNumbers/${encodeURIComponent(country)}/${type}.json`,
        availableNumbersSchema,
        [
          ['SmsEnabled', 'true'],
          ['PageSize', String(limit)],
        ],
      );
      return page.available_phone_numbers.map((entry) => ({
        number: entry.phone_number,
        country: entry.iso_country,
        capabilities: {
          sms: capability(entry.capabilities, 'sms'),
          mms: capability(entry.capabilities, 'mms'),
        },
      }));
    } catch (error) {
      if (error instanceof TwilioApiError && error.httpStatus === 404) return [];
      throw error;
    }
  }

  /**
   * Calls `to` and reads out the code (Calls.json with inline Twiml). The call comes from the configured
   * caller number, else from `from`; it must be a number of this Twilio account. Throws TwilioApiError when
   * Twilio refuses the call.
   */
  async placeVerificationCall(call: { from: string | null; to: string; code: string }): Promise<void> {
    const from = this.options.callerId ?? call.from;
    if (from === null) throw new Error('No number to place the verification call from: set the caller number (TWILIO_CALLER_ID)');
    await this.rest.request('POST', '/Calls.json', callSchema, [
      ['To', call.to],
      ['From', from],
      ['Twiml', verificationTwiml(call.code)],
    ]);
  }

  /**
   * Click-to-call (docs/calls.md): Calls.json rings the user's phone from the account's number with inline
   * TwiML that, once they answer, dials the contact showing the account's number. The call's status callback
   * and the Dial's action both go to our call status URL naming our call id; both are signed by Twilio.
   */
  async placeBridgedCall(call: BridgedCall): Promise<{ carrierCallId: string }> {
    const statusUrl = this.options.callStatusUrl;
    if (statusUrl === undefined) throw new Error('The Twilio adapter has no call status URL');
    const callback = callStatusCallback(statusUrl, call.accountId, call.callId);
    const created = await this.rest.request('POST', '/Calls.json', callSchema, [
      ['To', call.agent],
      ['From', call.from],
      ['Twiml', dialTwiml({ number: call.destination, callerId: call.from, action: callback })],
      ['StatusCallback', callback],
      ['StatusCallbackMethod', 'POST'],
    ]);
    return { carrierCallId: created.sid };
  }

  async buyNumber(number: string): Promise<{ carrierNumberId: string }> {
    // The number-level StatusCallback is for voice calls; message receipts come from each message's StatusCallback.
    const voice: FormFields =
      this.options.voiceUrl === undefined
        ? []
        : [
            ['VoiceUrl', this.options.voiceUrl],
            ['VoiceMethod', 'POST'],
          ];
    const bought = await this.rest.request('POST', '/IncomingPhoneNumbers.json', incomingNumberSchema, [
      ['PhoneNumber', number],
      ['SmsUrl', this.options.inboundUrl],
      ['SmsMethod', 'POST'],
      ...voice,
    ]);
    return { carrierNumberId: bought.sid };
  }
}

/** A call's status callback URL: which account's call it is, so the webhook finds it by its index. */
export function callStatusCallback(callStatusUrl: string, accountId: string, callId: string): string {
  return `${callStatusUrl}?account=${encodeURIComponent(accountId)}&call=${encodeURIComponent(callId)}`;
}

/** AvailablePhoneNumbers spells capabilities `SMS`/`MMS`, IncomingPhoneNumbers `sms`/`mms`. */
function capability(capabilities: Record<string, boolean | null | undefined> | null | undefined, name: string): boolean {
  if (!capabilities) return false;
  return Object.entries(capabilities).some(([key, value]) => key.toLowerCase() === name && value === true);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
