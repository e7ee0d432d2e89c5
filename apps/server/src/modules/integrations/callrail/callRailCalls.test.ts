import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callRailCallSchema } from './callRailApi.js';
import { callersOf, namesOf, providerCallOf } from './callRailCalls.js';
import { callRailSignatureOk } from './callRailSignature.js';

const call = (overrides: Record<string, unknown> = {}) =>
  callRailCallSchema.parse({
    resource_id: 'CAL1',
    answered: false,
    voicemail: false,
    direction: 'inbound',
    duration: '0',
    start_time: '2026-12-03T09:00:00.000-05:00',
    customer_phone_number: '+14155550123',
    customer_name: 'ADA LOVELACE',
    tracking_phone_number: '+14045550111',
    business_phone_number: '+14045550100',
    recording: null,
    source: 'Google Paid',
    campaign: null,
    keywords: '',
    ...overrides,
  });

describe("CallRail's calls", () => {
  it('maps voicemail, answered and missed, with the duration as a number or a string', () => {
    expect(providerCallOf(call())).toMatchObject({ externalId: 'CAL1', status: 'missed', durationSeconds: 0, from: '+14155550123', to: '+14045550111' });
    expect(providerCallOf(call({ answered: true, duration: '192' }))).toMatchObject({ status: 'answered', durationSeconds: 192 });
    expect(providerCallOf(call({ voicemail: true, duration: 31 }))).toMatchObject({ status: 'voicemail', durationSeconds: 31 });
    expect(providerCallOf(call({ resource_id: undefined, id: 'CAL2' }))?.externalId).toBe('CAL2');
    expect(providerCallOf(call({ resource_id: undefined }))).toBeNull();
    // A caller who hid their number cannot be a contact: the call is left out.
    expect(providerCallOf(call({ customer_phone_number: '' }))).toBeNull();
  });

  it('writes an outgoing call from the tracking number to the customer, and keeps only the tracking data given', () => {
    const out = providerCallOf(call({ direction: 'outbound', answered: true, tracking_phone_number: '' }));
    expect(out).toMatchObject({ direction: 'outbound', from: '+14045550100', to: '+14155550123' });
    expect(out?.attributes).toEqual({ source: 'Google Paid' });
  });

  it('names callers once each, first word first', () => {
    expect(namesOf('ADA LOVELACE')).toEqual({ firstName: 'ADA', lastName: 'LOVELACE' });
    expect(namesOf(' Cher ')).toEqual({ firstName: 'Cher', lastName: '' });
    expect(callersOf([call(), call({ resource_id: 'CAL3' }), call({ customer_phone_number: '' })])).toHaveLength(1);
  });
});

describe("CallRail's signature", () => {
  const body = Buffer.from('{"resource_id":"CAL1"}');
  const signed = createHmac('sha1', 'key').update(body).digest('base64');

  it('accepts the body as signed with the key, and nothing else', () => {
    expect(callRailSignatureOk('key', body, signed)).toBe(true);
    expect(callRailSignatureOk('key', body, [signed])).toBe(true);
    expect(callRailSignatureOk('other', body, signed)).toBe(false);
    expect(callRailSignatureOk('key', Buffer.from('{"resource_id":"CAL2"}'), signed)).toBe(false);
    expect(callRailSignatureOk('key', body, undefined)).toBe(false);
    expect(callRailSignatureOk('key', body, '')).toBe(false);
    expect(callRailSignatureOk('', body, createHmac('sha1', '').update(body).digest('base64'))).toBe(false);
  });
});
