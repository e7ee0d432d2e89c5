import { describe, expect, it } from 'vitest';
import { HUBSPOT_SIGNATURE_MAX_AGE_MS, hubspotSignedUri, verifyHubSpotSignatureV3 } from './hubspotSignature.js';
import { HubSpotPeer } from './test/hubspotPeer.js';

// The peer signs as HubSpot documents (its own HMAC code); the server is not started: only its signing is used.
const peer = new HubSpotPeer();
const url = 'https://parley.example/v1/integrations/hubspot/actions/send';
const body = JSON.stringify(peer.workflowActionBody('1001', { message: 'Hello' }));
const now = 1_796_212_800_000;

const request = (headers: Record<string, string>, overrides: Partial<Parameters<typeof verifyHubSpotSignatureV3>[0]> = {}): Parameters<typeof verifyHubSpotSignatureV3>[0] => ({
  clientSecret: peer.clientSecret,
  method: 'POST',
  url,
  body,
  signature: headers['x-hubspot-signature-v3'],
  timestamp: headers['x-hubspot-request-timestamp'],
  nowMs: now,
  ...overrides,
});

describe("HubSpot's request signature v3", () => {
  it('accepts a request HubSpot signed, received within five minutes', () => {
    expect(verifyHubSpotSignatureV3(request(peer.signedHeaders('POST', url, body, now)))).toBe(true);
    expect(verifyHubSpotSignatureV3(request(peer.signedHeaders('POST', url, body, now - HUBSPOT_SIGNATURE_MAX_AGE_MS + 1000)))).toBe(true);
  });

  it('refuses a tampered body, method, URL or timestamp, and another secret', () => {
    const headers = peer.signedHeaders('POST', url, body, now);
    expect(verifyHubSpotSignatureV3(request(headers, { body: body.replace('Hello', 'Hullo') }))).toBe(false);
    expect(verifyHubSpotSignatureV3(request(headers, { method: 'PUT' }))).toBe(false);
    expect(verifyHubSpotSignatureV3(request(headers, { url: `${url}?x=1` }))).toBe(false);
    expect(verifyHubSpotSignatureV3(request({ ...headers, 'x-hubspot-request-timestamp': String(now - 1) }))).toBe(false);
    expect(verifyHubSpotSignatureV3(request(peer.signedHeaders('POST', url, body, now, 'another-secret')))).toBe(false);
  });

  it('refuses an old request (a replay), one from too far ahead, and one without the headers', () => {
    const old = now - HUBSPOT_SIGNATURE_MAX_AGE_MS - 1000;
    expect(verifyHubSpotSignatureV3(request(peer.signedHeaders('POST', url, body, old)))).toBe(false);
    expect(verifyHubSpotSignatureV3(request(peer.signedHeaders('POST', url, body, now + HUBSPOT_SIGNATURE_MAX_AGE_MS + 1000)))).toBe(false);
    expect(verifyHubSpotSignatureV3(request({}))).toBe(false);
    expect(verifyHubSpotSignatureV3(request({ 'x-hubspot-signature-v3': 'abc', 'x-hubspot-request-timestamp': 'yesterday' }))).toBe(false);
  });

  it('checks the URI with the escapes HubSpot decodes before signing decoded', () => {
    const signedAs = `${url}?contact=a:b@c&list=(1,2)`;
    const received = `${url}?contact=a%3Ab%40c&list=%281%2C2%29`;
    expect(hubspotSignedUri(received)).toBe(signedAs);
    expect(hubspotSignedUri(`${url}?q=%20%26`)).toBe(`${url}?q=%20%26`);
    expect(verifyHubSpotSignatureV3(request(peer.signedHeaders('POST', signedAs, body, now), { url: received }))).toBe(true);
  });
});
