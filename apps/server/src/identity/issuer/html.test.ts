import { describe, expect, it } from 'vitest';
import { escapeHtml, signInPage } from './html.js';

describe('issuer pages', () => {
  it('escapes what it shows', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const page = signInPage({ action: '/oidc/interaction/"><script>', email: '"><img src=x onerror=alert(1)>', error: '<b>' });
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;b&gt;');
  });
});
