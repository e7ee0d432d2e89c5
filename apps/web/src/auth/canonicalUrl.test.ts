import { describe, expect, it } from 'vitest';
import { canonicalUrl } from './canonicalUrl';

const at = (url: string) => {
  const u = new URL(url);
  return { origin: u.origin, pathname: u.pathname, search: u.search, hash: u.hash };
};

describe('canonicalUrl', () => {
  it('moves another address of the same deployment to PUBLIC_URL, keeping the page', () => {
    expect(canonicalUrl('http://localhost:3000', at('http://127.0.0.1:3000/contacts?q=a#x'))).toBe(
      'http://localhost:3000/contacts?q=a#x',
    );
    expect(canonicalUrl('https://sms.example.com/', at('http://10.0.0.5:3000/'))).toBe('https://sms.example.com/');
  });

  it('stays when the browser is already there, or PUBLIC_URL is unusable', () => {
    expect(canonicalUrl('http://localhost:3000', at('http://localhost:3000/accounts'))).toBeNull();
    expect(canonicalUrl('not a url', at('http://localhost:3000/'))).toBeNull();
  });
});
