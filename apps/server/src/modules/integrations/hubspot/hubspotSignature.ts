import { Signature } from '@hubspot/api-client';
import { sameSecretText } from '../../../platform/secrets/sameSecretText.js';

/*
 * HubSpot's request signature v3 (docs/integrations-hubspot.md, "Requests from HubSpot"): base64 HMAC
 * SHA-256, keyed by the app's client secret, of method + URI + raw body + the X-HubSpot-Request-Timestamp
 * header (milliseconds). The hash is the client library's (Signature.getSignature); the checks around it are
 * ours: its isValid compares with `===`, reads the wall clock and throws on an old timestamp.
 */

/** HubSpot: reject a request whose timestamp is older than five minutes. */
export const HUBSPOT_SIGNATURE_MAX_AGE_MS = 5 * 60_000;

/** Percent-escapes HubSpot decodes in the URI before signing it (its v3 instructions list exactly these). */
const decodedInUri: Record<string, string> = {
  '%3A': ':',
  '%2F': '/',
  '%3F': '?',
  '%40': '@',
  '%21': '!',
  '%24': '$',
  '%27': "'",
  '%28': '(',
  '%29': ')',
  '%2A': '*',
  '%2C': ',',
  '%3B': ';',
};

/** The URI as HubSpot signs it: the full URL, with the escapes above decoded. */
export function hubspotSignedUri(url: string): string {
  return url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (escape) => decodedInUri[escape.toUpperCase()] ?? escape);
}

/** The v3 signature of a request (what HubSpot sends in X-HubSpot-Signature-v3). */
export function hubspotSignatureV3(input: { clientSecret: string; method: string; url: string; body: string; timestamp: number }): string {
  return Signature.getSignature(input.method.toUpperCase(), 'v3', {
    signature: '',
    clientSecret: input.clientSecret,
    requestBody: input.body,
    url: hubspotSignedUri(input.url),
    timestamp: input.timestamp,
  });
}

export interface HubSpotSignedRequest {
  clientSecret: string;
  method: string;
  /** The full URL HubSpot called: `{PUBLIC_URL}` + path and query, as the app's settings name it. */
  url: string;
  /** The raw body, before any parsing. */
  body: string;
  signature: string | undefined;
  timestamp: string | undefined;
  nowMs: number;
}

/**
 * Whether a request carries HubSpot's v3 signature made within the last five minutes (a timestamp more than
 * five minutes ahead is refused too: clocks drift, but not that far).
 */
export function verifyHubSpotSignatureV3(request: HubSpotSignedRequest): boolean {
  const { signature, timestamp } = request;
  if (signature === undefined || timestamp === undefined || !/^\d{1,16}$/.test(timestamp)) return false;
  const at = Number(timestamp);
  if (Math.abs(request.nowMs - at) > HUBSPOT_SIGNATURE_MAX_AGE_MS) return false;
  const expected = hubspotSignatureV3({ clientSecret: request.clientSecret, method: request.method, url: request.url, body: request.body, timestamp: at });
  return sameSecretText(signature, expected);
}
