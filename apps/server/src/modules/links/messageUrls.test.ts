import { describe, expect, it } from 'vitest';
import { isShortUrl, linkNameOf, replaceUrls, shortBaseOf, urlsInText } from './messageUrls.js';

describe('URLs in a message', () => {
  it('finds http(s) URLs, leaving sentence punctuation and URLs that run into a token', () => {
    const text = 'See https://a.example/x. Or (http://b.example/y?q=1)! Yours: https://c.example/?m={{{mobile}}} ftp://d.example';
    expect(urlsInText(text).map((u) => u.url)).toEqual(['https://a.example/x', 'http://b.example/y?q=1']);
    expect(urlsInText('no links here')).toEqual([]);
  });

  it('tells short URLs of the given bases from others', () => {
    const bases = [shortBaseOf('https://hub.example/r'), shortBaseOf('https://go.shop.example')];
    expect(isShortUrl('https://hub.example/r/Abc1234', bases)).toBe(true);
    expect(isShortUrl('https://GO.shop.example/Abc1234', bases)).toBe(true);
    expect(isShortUrl('https://go.shop.example/Abc1234?x=1', bases)).toBe(false);
    expect(isShortUrl('https://hub.example/Abc1234', bases)).toBe(false);
    expect(isShortUrl('https://bit.example/Abc1234', bases)).toBe(false);
    expect(isShortUrl('https://go.shop.example/menu/Abc1234', bases)).toBe(false);
  });

  it('names a link after its host and path, cut with an ellipsis', () => {
    expect(linkNameOf('https://shop.example/spring?utm=sms#top', 60)).toBe('shop.example/spring');
    expect(linkNameOf('https://shop.example/', 60)).toBe('shop.example');
    expect(linkNameOf(`https://shop.example/${'a'.repeat(100)}`, 20)).toBe('shop.example/aaaaaa…');
  });

  it('replaces each URL found by its short URL, the rest of the text as it was', () => {
    const text = 'A https://a.example/x and https://a.example/x, B https://b.example';
    const found = urlsInText(text);
    expect(replaceUrls(text, found, new Map([['https://a.example/x', 'https://s.example/1234567']]))).toBe(
      'A https://s.example/1234567 and https://s.example/1234567, B https://b.example',
    );
  });
});
