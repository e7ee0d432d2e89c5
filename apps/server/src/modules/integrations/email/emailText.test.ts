import { describe, expect, it } from 'vitest';
import { digitsOfSubject, numberAddress, parseMailRecipient } from './emailAddress.js';
import { smsTextOfMail, stripQuotedText } from './emailText.js';
import { recordAuthentication } from './mailAuthentication.js';

describe('the text of a mail', () => {
  it('drops quoted history, attributions, original-message blocks and signatures', () => {
    expect(stripQuotedText('Call me at 5.\n\nOn Mon, 1 Dec 2026, Bob <b@x.test>\nwrote:\n> old')).toBe('Call me at 5.');
    expect(stripQuotedText('Yes\r\n-----Original Message-----\r\nFrom: a')).toBe('Yes');
    expect(stripQuotedText('Fine\n> quoted\nand more\n-- \nAnn')).toBe('Fine\nand more');
    expect(stripQuotedText('Ok\n\nSent from my iPhone')).toBe('Ok');
    expect(stripQuotedText('> only quoted\n\n--\nsig')).toBe('');
  });

  it('takes the HTML as text when there is no plain part', () => {
    expect(smsTextOfMail({ html: '<p>Hello &amp; welcome</p><blockquote>old</blockquote><div>Bye<br>now</div>' })).toBe('Hello & welcome\nBye\nnow');
    expect(smsTextOfMail({ text: ' ', html: false })).toBe('');
  });
});

describe('the addresses', () => {
  it('reads <digits>.<token> and <token> on the inbound domain only', () => {
    expect(parseMailRecipient('14155550100.abcdefgh2345@In.Parley.test', 'in.parley.test')).toEqual({ token: 'abcdefgh2345', digits: '14155550100' });
    expect(parseMailRecipient('abcdefgh2345@in.parley.test', 'in.parley.test')).toEqual({ token: 'abcdefgh2345', digits: null });
    expect(parseMailRecipient('abcdefgh2345@other.test', 'in.parley.test')).toBeNull();
    expect(parseMailRecipient('14155550100@in.parley.test', 'in.parley.test')).toEqual({ token: '14155550100', digits: null });
    expect(parseMailRecipient('a.b.c@in.parley.test', 'in.parley.test')).toBeNull();
    expect(numberAddress('+1 415 555 0100', 'tok', 'd.test')).toBe('14155550100.tok@d.test');
    expect(digitsOfSubject('+1 (415) 555-0100')).toBe('14155550100');
    expect(digitsOfSubject('Meeting at 3')).toBeNull();
  });
});

describe('what is recorded of authentication', () => {
  it('reads spf and dkim from the headers as they arrived, and the connection', () => {
    const lines = [
      { key: 'authentication-results', line: 'Authentication-Results: mx.test; spf=fail smtp.mailfrom=x.test;\r\n dkim=none' },
      { key: 'received-spf', line: 'Received-SPF: Pass (mx.test: domain of x.test)' },
    ];
    expect(recordAuthentication(lines, { remoteAddress: '203.0.113.5', helo: 'mail.x.test', mailFrom: 'a@x.test' })).toEqual({
      remoteAddress: '203.0.113.5',
      helo: 'mail.x.test',
      mailFrom: 'a@x.test',
      authenticationResults: ['mx.test; spf=fail smtp.mailfrom=x.test; dkim=none'],
      receivedSpf: ['Pass (mx.test: domain of x.test)'],
      spf: 'fail',
      dkim: 'none',
    });
    expect(recordAuthentication([{ key: 'received-spf', line: 'Received-SPF: softfail' }], {})).toEqual({ receivedSpf: ['softfail'], spf: 'softfail' });
  });
});
