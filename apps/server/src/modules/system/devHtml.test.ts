import { describe, expect, it } from 'vitest';
import { escapeHtml, linkify, timeElement } from './devHtml.js';

describe('escapeHtml', () => {
  it('escapes everything that could open a tag or leave an attribute', () => {
    expect(escapeHtml(`<script>alert("x" + 'y')</script> & co`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt; &amp; co',
    );
  });
});

describe('linkify', () => {
  it('turns http(s) links into anchors and escapes the rest', () => {
    expect(linkify('Verify: https://parley.test/verify?token=a&next=/x <now>')).toBe(
      'Verify: <a href="https://parley.test/verify?token=a&amp;next=/x">https://parley.test/verify?token=a&amp;next=/x</a> &lt;now&gt;',
    );
  });

  it('leaves sentence punctuation outside the link', () => {
    expect(linkify('Go to http://localhost:3000/reset. Or (http://x.test/a), ok!')).toBe(
      'Go to <a href="http://localhost:3000/reset">http://localhost:3000/reset</a>. ' +
        'Or (<a href="http://x.test/a">http://x.test/a</a>), ok!',
    );
  });

  it('never links other schemes and cannot be talked out of the attribute', () => {
    expect(linkify('javascript:alert(1) data:text/html,x')).toBe('javascript:alert(1) data:text/html,x');
    expect(linkify('https://x.test/"onmouseover="alert(1)')).toBe(
      '<a href="https://x.test/">https://x.test/</a>&quot;onmouseover=&quot;alert(1)',
    );
  });
});

describe('timeElement', () => {
  it('shows UTC time and keeps the ISO time for machines', () => {
    expect(timeElement(new Date('2026-03-04T05:06:07.890Z'))).toBe(
      '<time datetime="2026-03-04T05:06:07.890Z">2026-03-04 05:06:07 UTC</time>',
    );
  });
});
