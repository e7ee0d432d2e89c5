import { describe, expect, it } from 'vitest';
import { escapeHtml, forgotPasswordPage, linkPage, resetPasswordPage, signInPage } from './html.js';

describe('issuer pages', () => {
  it('escapes what it shows', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const page = signInPage({ action: '/oidc/interaction/"><script>', email: '"><img src=x onerror=alert(1)>', error: '<b>' });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;b&gt;');
  });

  it('shows one escaped Continue with … link per social provider, and none without', () => {
    const page = signInPage({ action: '/x', social: [{ name: 'Google', href: '/oidc/interaction/u/social/google' }, { name: '<Acme>', href: '/a"b' }] });
    expect(page).toContain('<a class="social" href="/oidc/interaction/u/social/google">Continue with Google</a>');
    expect(page).toContain('<a class="social" href="/a&quot;b">Continue with &lt;Acme&gt;</a>');
    expect(page).toContain('<p class="or">or</p>');
    expect(signInPage({ action: '/x', social: [] })).not.toContain('class="social"');
  });
});

describe('password reset pages', () => {
  it('escape the token, the address and the messages', () => {
    const forgot = forgotPasswordPage({ action: '/oidc/forgot', email: '"><script>', error: '<b>', notice: '<i>' });
    expect(forgot).not.toContain('<script>');
    expect(forgot).toContain('&lt;b&gt;');
    expect(forgot).toContain('&lt;i&gt;');
    const reset = resetPasswordPage({ action: '/oidc/reset', token: '"><img src=x>', rules: '* <rule>', error: 'Password is too weak\n* x' });
    expect(reset).not.toContain('<img');
    expect(reset).toContain('&lt;rule&gt;');
    const done = linkPage('Done', '<ok>', { href: 'https://parley.test/?a="b"', label: 'Go' });
    expect(done).toContain('href="https://parley.test/?a=&quot;b&quot;"');
    expect(signInPage({ action: '/x', forgotUrl: '/oidc/forgot' })).toContain('<a href="/oidc/forgot">Forgot your password?</a>');
    expect(signInPage({ action: '/x', signUpUrl: 'http://localhost:3000/signup' })).toContain(
      'New to Parley? <a href="http://localhost:3000/signup">Create an account</a>',
    );
    expect(signInPage({ action: '/x' })).not.toContain('Create an account');
  });
});
