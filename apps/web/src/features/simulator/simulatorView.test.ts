import { SIMULATOR_ERROR_CODES_NEEDED_MESSAGE, SIMULATOR_FAILURE_RATE_MESSAGE, validationMessages, type SimulatorMessage } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { bubbleSide, callButtons, defaultBusinessNumber, formFromSettings, percent, settingsFromForm, statusLine, type SettingsForm } from './simulatorView';

const message = (overrides: Partial<SimulatorMessage>): SimulatorMessage => ({
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  kind: 'mt',
  businessNumber: '+12025550100',
  phoneNumber: '+14155550101',
  body: 'Hello',
  media: [],
  status: 'accepted',
  error: null,
  created: { at: '2030-01-01T12:00:00.000Z' },
  ...overrides,
});

const numbers = [
  { number: '+12025550100', name: 'Front desk' },
  { number: '+12125550100', name: '' },
];

const form: SettingsForm = {
  seed: '7',
  latencyMs: '300',
  failureRate: '0.05',
  messagesPerSecond: '10',
  errorCodes: [{ code: '30003', text: 'Unreachable destination handset', stage: 'delivery' }],
};

describe('defaultBusinessNumber', () => {
  it('answers from the number the phone talked with last, while the account still has it', () => {
    expect(defaultBusinessNumber({ businessNumbers: ['+12125550100', '+12025550100'] }, numbers)).toBe('+12125550100');
    expect(defaultBusinessNumber({ businessNumbers: ['+13035550100', '+12025550100'] }, numbers)).toBe('+12025550100');
  });

  it("falls back to the account's first number, or none", () => {
    expect(defaultBusinessNumber({ businessNumbers: [] }, numbers)).toBe('+12025550100');
    expect(defaultBusinessNumber({ businessNumbers: ['+13035550100'] }, [])).toBeNull();
  });
});

describe('thread items', () => {
  it('puts what the business sent on one side, what the phone sent on the other, calls across', () => {
    expect(bubbleSide('mt')).toBe('received');
    expect(bubbleSide('mo')).toBe('sent');
    expect(bubbleSide('call')).toBe('call');
  });

  it("captions each item with what became of it, failures with the carrier's code and text", () => {
    expect(statusLine(message({ status: 'accepted' }))).toBe('Sent');
    expect(statusLine(message({ status: 'delivered' }))).toBe('Delivered');
    expect(statusLine(message({ status: 'undelivered', error: { code: '30003', text: 'Unreachable destination handset' } }))).toBe(
      'Undelivered: 30003 Unreachable destination handset',
    );
    expect(statusLine(message({ status: 'failed', error: { code: '21610', text: 'Attempt to send to unsubscribed recipient' } }))).toBe(
      'Refused: 21610 Attempt to send to unsubscribed recipient',
    );
    expect(statusLine(message({ kind: 'mo', status: 'pending' }))).toBe('Sending…');
    expect(statusLine(message({ kind: 'mo', status: 'handed' }))).toBe('Received by the business');
    expect(statusLine(message({ kind: 'call', status: 'placed' }))).toBe('Verification call');
  });
});

describe('the settings form', () => {
  it('round-trips the settings and checks them with the shared schema', () => {
    const settings = { seed: 7, latencyMs: 300, failureRate: 0.05, messagesPerSecond: 10, errorCodes: form.errorCodes, updated: { at: '' } };
    expect(formFromSettings(settings)).toEqual(form);
    expect(settingsFromForm(form)).toEqual({
      ok: true,
      value: { seed: 7, latencyMs: 300, failureRate: 0.05, messagesPerSecond: 10, errorCodes: form.errorCodes },
    });
  });

  it('names each bad field with its message; a blank field is not a number', () => {
    expect(settingsFromForm({ ...form, latencyMs: '', failureRate: '0.00001', messagesPerSecond: 'ten' })).toEqual({
      ok: false,
      errors: {
        latencyMs: validationMessages.number,
        failureRate: SIMULATOR_FAILURE_RATE_MESSAGE,
        messagesPerSecond: validationMessages.number,
      },
    });
    expect(settingsFromForm({ ...form, errorCodes: [] })).toEqual({ ok: false, errors: { errorCodes: SIMULATOR_ERROR_CODES_NEEDED_MESSAGE } });
    expect(settingsFromForm({ ...form, errorCodes: [{ code: '', text: 'x', stage: 'submit' }] })).toEqual({
      ok: false,
      errors: { 'errorCodes.0.code': validationMessages.required },
    });
  });

  it('says a failure rate in percent', () => {
    expect(percent(0.125)).toBe('12.5%');
    expect(percent(0.07)).toBe('7%');
    expect(percent(1)).toBe('100%');
  });
});

describe('a call on a virtual phone', () => {
  it('tells a verification call from a voice call and says where the voice call is', () => {
    expect(statusLine(message({ kind: 'call', status: 'placed' }))).toBe('Verification call');
    expect(statusLine(message({ kind: 'call', status: 'ringing' }))).toBe('Ringing');
    expect(statusLine(message({ kind: 'call', status: 'talking' }))).toBe('Connected');
    expect(statusLine(message({ kind: 'call', status: 'ended' }))).toBe('Call ended');
  });

  it('offers Answer and Decline while it rings, Hang up while connected, nothing once over or for a verification call', () => {
    expect(callButtons(message({ kind: 'call', status: 'ringing' }))).toEqual(['answer', 'decline']);
    expect(callButtons(message({ kind: 'call', status: 'talking' }))).toEqual(['hangUp']);
    expect(callButtons(message({ kind: 'call', status: 'ended' }))).toEqual([]);
    expect(callButtons(message({ kind: 'call', status: 'placed' }))).toEqual([]);
    expect(callButtons(message({ kind: 'mt', status: 'accepted' }))).toEqual([]);
  });
});
