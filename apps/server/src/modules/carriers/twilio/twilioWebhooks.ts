import crypto from 'node:crypto';
import type { DeliveryStatus, InboundMessage, MediaItem, StatusReport } from '../carrier.js';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/** Form parameters of a webhook as a form body parser gives them (a repeated name gives an array). */
export type TwilioParams = Record<string, string | string[] | undefined>;

/** A webhook that cannot be read (a missing MessageSid ...): the HTTP layer answers 400. */
export class TwilioWebhookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TwilioWebhookError';
  }
}

/**
 * The URL Twilio requested, as Twilio saw it: our PUBLIC_URL plus the path and query of the request. Behind a
 * reverse proxy the request itself arrives at an internal address (http://127.0.0.1:3000/...), which is not the
 * URL Twilio signed.
 */
export function twilioWebhookUrl(publicUrl: string, pathAndQuery: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/${pathAndQuery.replace(/^\/+/, '')}`;
}

/**
 * Twilio's documented request validation: HMAC-SHA1, keyed with the auth token, over the full URL followed by
 * each POST parameter's name and value, parameters sorted by name; base64; compared in constant time.
 * Twilio signs the URL as configured, which may or may not carry the default port, so both forms are tried.
 */
export function verifyTwilioSignature(input: {
  url: string;
  params: TwilioParams;
  signature: string | undefined;
  authToken: string;
}): boolean {
  const { signature } = input;
  if (!signature) return false;
  return urlVariants(input.url).some((url) => sameSecretText(signature, expectedSignature(input.authToken, url, input.params)));
}

function expectedSignature(authToken: string, url: string, params: TwilioParams): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value === undefined) continue;
    // A repeated parameter contributes name+value once per distinct value, values sorted (as Twilio's libraries do).
    const values = Array.isArray(value) ? [...new Set(value)].sort() : [value];
    for (const item of values) data += name + item;
  }
  return crypto.createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

function urlVariants(url: string): string[] {
  const match = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(url);
  if (!match) return [url];
  const [, scheme = '', authority = '', rest = ''] = match;
  const defaultPort = scheme.toLowerCase() === 'https' ? ':443' : ':80';
  const withoutPort = authority.endsWith(defaultPort) ? authority.slice(0, -defaultPort.length) : authority;
  const hasOtherPort = /:\d+$/.test(withoutPort);
  const variants = [`${scheme}://${withoutPort}${rest}`];
  if (!hasOtherPort) variants.push(`${scheme}://${withoutPort}${defaultPort}${rest}`);
  return variants;
}

/**
 * A status callback as a StatusReport, or null for the steps before the carrier has the message out
 * (accepted, scheduled, queued, sending): our own status is already `queued` and moves to `sent` only when
 * Twilio reports it sent.
 */
export function parseTwilioStatus(params: TwilioParams, now: Date = new Date()): StatusReport | null {
  const carrierMessageId = required(params, 'MessageSid');
  const twilioStatus = required(params, 'MessageStatus');
  const status = deliveryStatus(twilioStatus);
  if (status === null) return null;
  return {
    carrierMessageId,
    status,
    errorCode: optional(params, 'ErrorCode'),
    errorText: optional(params, 'ErrorMessage'),
    at: now,
  };
}

function deliveryStatus(twilioStatus: string): DeliveryStatus | null {
  switch (twilioStatus) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
      return null;
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'partially_delivered':
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      throw new TwilioWebhookError(`Unknown MessageStatus "${twilioStatus}"`);
  }
}

/** An inbound message webhook (SmsUrl) as an InboundMessage, with its media (MediaUrl0.., MediaContentType0..). */
export function parseTwilioInbound(params: TwilioParams, now: Date = new Date()): InboundMessage {
  const numMedia = Number(optional(params, 'NumMedia') ?? '0');
  if (!Number.isInteger(numMedia) || numMedia < 0 || numMedia > 10) {
    throw new TwilioWebhookError('NumMedia must be a whole number from 0 to 10');
  }
  const media: MediaItem[] = [];
  for (let index = 0; index < numMedia; index += 1) {
    media.push({
      url: required(params, `MediaUrl${String(index)}`),
      contentType: optional(params, `MediaContentType${String(index)}`) ?? 'application/octet-stream',
    });
  }
  return {
    carrierMessageId: required(params, 'MessageSid'),
    from: required(params, 'From'),
    to: required(params, 'To'),
    text: optional(params, 'Body') ?? '',
    media,
    receivedAt: now,
  };
}

function optional(params: TwilioParams, name: string): string | null {
  const value = params[name];
  const single = Array.isArray(value) ? value[0] : value;
  return single === undefined || single === '' ? null : single;
}

function required(params: TwilioParams, name: string): string {
  const value = optional(params, name);
  if (value === null) throw new TwilioWebhookError(`${name} is missing`);
  return value;
}
