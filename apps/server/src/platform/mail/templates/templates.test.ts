import { describe, expect, it } from 'vitest';
import { alreadyRegisteredMail } from './alreadyRegistered.js';
import { passwordResetMail } from './passwordReset.js';
import { verifyEmailMail } from './verifyEmail.js';

describe('mail templates', () => {
  it('writes the link out in text and escapes everything in HTML', () => {
    const link = 'https://parley.test/v1/verify?token=abc&x="y"';
    const mail = verifyEmailMail({ firstName: '<b>Ada</b>', link, validHours: 48 });
    expect(mail.subject).toBe('Verify your email address for Parley');
    expect(mail.text).toContain(`Verify email address: ${link}`);
    expect(mail.text).toContain('Hello <b>Ada</b>,');
    expect(mail.text).toContain('expires in 48 hours');
    expect(mail.html).toContain('Hello &lt;b&gt;Ada&lt;/b&gt;,');
    expect(mail.html).toContain('href="https://parley.test/v1/verify?token=abc&amp;x=&quot;y&quot;"');
    expect(mail.html).not.toContain('<b>Ada');
  });

  it('greets without a name and names the product', () => {
    const reset = passwordResetMail({ firstName: ' ', link: 'https://parley.test/oidc/reset?token=t', validMinutes: 60 });
    expect(reset.text.startsWith('Hello,\n')).toBe(true);
    expect(reset.text).toContain('expires in 60 minutes');
    expect(reset.html).toContain('Parley');
    const notice = alreadyRegisteredMail({ firstName: 'Ada', signInUrl: 'https://parley.test/', resetUrl: 'https://parley.test/oidc/forgot' });
    expect(notice.subject).toBe('You already have a Parley account');
    expect(notice.text).toContain('https://parley.test/oidc/forgot');
  });
});
