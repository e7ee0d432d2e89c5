import { describe, expect, it } from 'vitest';
import { intercomBodyText } from './intercomText.js';

describe('intercomBodyText', () => {
  it('turns paragraphs and breaks into lines and drops tags', () => {
    expect(intercomBodyText('<p>Hello <b>Ann</b>,</p><p>your order ships today.<br>Thanks</p>')).toBe('Hello Ann,\nyour order ships today.\nThanks');
  });

  it('decodes named and numeric entities', () => {
    expect(intercomBodyText('<p>Tom &amp; Jerry&#39;s &lt;shop&gt; &#8217;ok&#x2019; &nbsp;</p>')).toBe("Tom & Jerry's <shop> \u2019ok\u2019");
  });

  it('keeps a link address', () => {
    expect(intercomBodyText('<p>See <a href="https://ex.example/t">tracking</a> or <a href="https://ex.example">https://ex.example</a></p>')).toBe(
      'See tracking (https://ex.example/t) or https://ex.example',
    );
  });

  it('folds blank lines and answers empty for an empty body', () => {
    expect(intercomBodyText('<p>a</p><p></p><p></p><p>b</p>')).toBe('a\n\nb');
    expect(intercomBodyText('<p> </p>')).toBe('');
  });
});
