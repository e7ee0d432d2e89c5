import { describe, expect, it } from 'vitest';
import { HubSpotAuthError, HubSpotRateLimited, HubSpotRequestError, hubspotError, retryAfterMs } from './hubspotErrors.js';

const now = Date.parse('2026-12-02T12:00:00.000Z');

/** What the client library throws for an answer outside 2xx (its ApiException's fields). */
const apiException = (code: number, body: unknown, headers: Record<string, string> = {}): Error => Object.assign(new Error('An error occurred.'), { code, body, headers });

describe("HubSpot's refusals, typed", () => {
  it('reads Retry-After in seconds or as a date, else the window of the policy HubSpot names', () => {
    expect(retryAfterMs({ 'retry-after': '3' }, {}, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 02 Dec 2026 12:00:20 GMT' }, {}, now)).toBe(20_000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 02 Dec 2026 11:00:00 GMT' }, {}, now)).toBe(0);
    expect(retryAfterMs({}, { policyName: 'SECONDLY' }, now)).toBe(1000);
    expect(retryAfterMs({}, { policyName: 'TEN_SECONDLY_ROLLING' }, now)).toBe(10_000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, null, now)).toBe(10_000);
  });

  it('turns 401 and a missing scope into an auth error, 429 into a delay, the rest into a request error', () => {
    expect(hubspotError(apiException(401, { message: 'Authentication credentials not found.' }))).toMatchObject({ name: 'HubSpotAuthError', reason: 'Authentication credentials not found.' });
    expect(hubspotError(apiException(403, { message: 'This app lacks a scope', category: 'MISSING_SCOPES' }))).toBeInstanceOf(HubSpotAuthError);
    expect(hubspotError(apiException(403, { message: 'No access', category: 'FORBIDDEN' }))).toBeInstanceOf(HubSpotRequestError);
    expect(hubspotError(apiException(429, {}, { 'retry-after': '2' }), now)).toEqual(new HubSpotRateLimited(2000));
    expect(hubspotError(apiException(500, 'Internal error'))).toMatchObject({ name: 'HubSpotRequestError', status: 500, reason: 'Internal error' });
  });

  it('passes errors that are not HubSpot answers through', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(hubspotError(refused)).toBe(refused);
  });
});
