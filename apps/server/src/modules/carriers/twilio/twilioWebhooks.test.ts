import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import {
  TwilioWebhookError,
  parseTwilioInbound,
  parseTwilioStatus,
  twilioWebhookUrl,
  verifyTwilioSignature,
} from './twilioWebhooks.js';

const authToken = '12345678901234567890123456789012';
const publicUrl = 'https://sms.example.test/';
const statusUrl = twilioWebhookUrl(publicUrl, '/webhooks/twilio/status?account=7f3c');
const inboundUrl = twilioWebhookUrl(publicUrl, '/webhooks/twilio/inbound');
const now = new Date('2026-03-02T10:00:00Z');

/** A status callback as Twilio posts it (the documented parameters). */
const statusParams: Record<string, string> = {
  AccountSid: 'AC00000000000000000000000000000001',
  ApiVersion: '2010-04-01',
  From: '+15005550006',
  To: '+14155550123',
  MessageSid: 'SM00000000000000000000000000000042',
  SmsSid: 'SM00000000000000000000000000000042',
  MessageStatus: 'undelivered',
  SmsStatus: 'undelivered',
  ErrorCode: '30003',
  ErrorMessage: 'Unreachable destination handset',
};

/** An inbound MMS as Twilio posts it to a number's SmsUrl. */
const inboundParams: Record<string, string> = {
  AccountSid: 'AC00000000000000000000000000000001',
  ApiVersion: '2010-04-01',
  MessageSid: 'MM00000000000000000000000000000077',
  SmsMessageSid: 'MM00000000000000000000000000000077',
  From: '+14155550123',
  To: '+15005550006',
  Body: 'Here is the photo of the tooth & the x-ray ✓',
  NumMedia: '2',
  NumSegments: '1',
  MediaUrl0: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM77/Media/ME1',
  MediaContentType0: 'image/jpeg',
  MediaUrl1: 'https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM77/Media/ME2',
  MediaContentType1: 'image/png',
  FromCountry: 'US',
  ToCountry: 'US',
};

function sign(url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params);
}

describe('verifyTwilioSignature against requests signed by the twilio library', () => {
  it('accepts a correctly signed status callback and inbound message', () => {
    for (const [url, params] of [
      [statusUrl, statusParams],
      [inboundUrl, inboundParams],
    ] as const) {
      const signature = sign(url, params);
      // The library's own validator agrees, so both sides compute Twilio's algorithm.
      expect(twilio.validateRequest(authToken, signature, url, params)).toBe(true);
      expect(verifyTwilioSignature({ url, params, signature, authToken })).toBe(true);
    }
  });

  it('accepts a URL Twilio signed with the default port', () => {
    const withPort = 'https://sms.example.test:443/webhooks/twilio/status?account=7f3c';
    const signature = sign(withPort, statusParams);
    expect(verifyTwilioSignature({ url: statusUrl, params: statusParams, signature, authToken })).toBe(true);
  });

  it('refuses an unsigned request', () => {
    expect(verifyTwilioSignature({ url: statusUrl, params: statusParams, signature: undefined, authToken })).toBe(false);
    expect(verifyTwilioSignature({ url: statusUrl, params: statusParams, signature: '', authToken })).toBe(false);
  });

  it('refuses tampered parameters', () => {
    const signature = sign(statusUrl, statusParams);
    const delivered = { ...statusParams, MessageStatus: 'delivered' };
    expect(verifyTwilioSignature({ url: statusUrl, params: delivered, signature, authToken })).toBe(false);
    const added = { ...statusParams, Extra: 'x' };
    expect(verifyTwilioSignature({ url: statusUrl, params: added, signature, authToken })).toBe(false);
    const inboundSignature = sign(inboundUrl, inboundParams);
    const otherMedia = { ...inboundParams, MediaUrl1: 'https://evil.example.test/x.png' };
    expect(verifyTwilioSignature({ url: inboundUrl, params: otherMedia, signature: inboundSignature, authToken })).toBe(
      false,
    );
  });

  it('refuses the proxy-internal URL in place of the public one Twilio signed', () => {
    const signature = sign(statusUrl, statusParams);
    const internal = 'http://127.0.0.1:3000/webhooks/twilio/status?account=7f3c';
    expect(verifyTwilioSignature({ url: internal, params: statusParams, signature, authToken })).toBe(false);
    const otherQuery = twilioWebhookUrl(publicUrl, '/webhooks/twilio/status?account=other');
    expect(verifyTwilioSignature({ url: otherQuery, params: statusParams, signature, authToken })).toBe(false);
  });

  it('refuses a signature made with another auth token', () => {
    const signature = twilio.getExpectedTwilioSignature('another-token', statusUrl, statusParams);
    expect(verifyTwilioSignature({ url: statusUrl, params: statusParams, signature, authToken })).toBe(false);
  });

  it('signs repeated parameters as the twilio library does', () => {
    const params = { Name: ['b', 'a', 'b'], Other: '1' };
    const signature = twilio.getExpectedTwilioSignature(authToken, statusUrl, params);
    expect(verifyTwilioSignature({ url: statusUrl, params, signature, authToken })).toBe(true);
  });
});

describe('twilioWebhookUrl', () => {
  it('joins PUBLIC_URL with the request path and query', () => {
    expect(twilioWebhookUrl('https://sms.example.test', '/webhooks/twilio/status?a=1')).toBe(
      'https://sms.example.test/webhooks/twilio/status?a=1',
    );
    expect(twilioWebhookUrl('https://example.test/parley/', '/webhooks/twilio/inbound')).toBe(
      'https://example.test/parley/webhooks/twilio/inbound',
    );
  });
});

describe('parseTwilioStatus', () => {
  it('reads the message sid, status and Twilio error', () => {
    expect(parseTwilioStatus(statusParams, now)).toEqual({
      carrierMessageId: 'SM00000000000000000000000000000042',
      status: 'undelivered',
      errorCode: '30003',
      errorText: 'Unreachable destination handset',
      at: now,
    });
  });

  it.each([
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'delivered'],
    ['undelivered', 'undelivered'],
    ['partially_delivered', 'undelivered'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
  ])('maps %s to %s', (twilioStatus, status) => {
    const params = { MessageSid: 'SM1', MessageStatus: twilioStatus };
    expect(parseTwilioStatus(params, now)).toEqual({
      carrierMessageId: 'SM1',
      status,
      errorCode: null,
      errorText: null,
      at: now,
    });
  });

  it.each(['accepted', 'scheduled', 'queued', 'sending'])('ignores the step %s before the message is out', (step) => {
    expect(parseTwilioStatus({ MessageSid: 'SM1', MessageStatus: step }, now)).toBeNull();
  });

  it('refuses a callback without a sid or with an unknown status', () => {
    expect(() => parseTwilioStatus({ MessageStatus: 'sent' })).toThrow(new TwilioWebhookError('MessageSid is missing'));
    expect(() => parseTwilioStatus({ MessageSid: 'SM1', MessageStatus: 'lost' })).toThrow(TwilioWebhookError);
  });
});

describe('parseTwilioInbound', () => {
  it('reads sender, recipient, text and each media item', () => {
    expect(parseTwilioInbound(inboundParams, now)).toEqual({
      carrierMessageId: 'MM00000000000000000000000000000077',
      from: '+14155550123',
      to: '+15005550006',
      text: 'Here is the photo of the tooth & the x-ray ✓',
      media: [
        { url: inboundParams.MediaUrl0, contentType: 'image/jpeg' },
        { url: inboundParams.MediaUrl1, contentType: 'image/png' },
      ],
      receivedAt: now,
    });
  });

  it('reads a plain SMS without media', () => {
    const sms = { MessageSid: 'SM9', From: '+14155550123', To: '+15005550006', Body: 'STOP', NumMedia: '0' };
    expect(parseTwilioInbound(sms, now)).toMatchObject({ text: 'STOP', media: [] });
  });

  it('refuses a message with a missing sender or media URL', () => {
    const { From: _from, ...noSender } = inboundParams;
    expect(() => parseTwilioInbound(noSender)).toThrow(new TwilioWebhookError('From is missing'));
    const { MediaUrl1: _media, ...noMedia } = inboundParams;
    expect(() => parseTwilioInbound(noMedia)).toThrow(new TwilioWebhookError('MediaUrl1 is missing'));
    expect(() => parseTwilioInbound({ ...inboundParams, NumMedia: 'x' })).toThrow(TwilioWebhookError);
  });
});
