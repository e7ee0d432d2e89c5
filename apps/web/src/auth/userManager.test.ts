import { describe, expect, it } from 'vitest';
import { signInReturnTo } from './userManager';

describe('signInReturnTo', () => {
  it('goes back to the page the sign-in started from', () => {
    expect(signInReturnTo({ returnTo: '/campaigns?x=1' })).toBe('/campaigns?x=1');
    expect(signInReturnTo({ returnTo: '/accounts' })).toBe('/accounts');
  });

  it('goes home instead of anywhere off the site', () => {
    // A link to https://parley.example//evil.example/x starts a sign-in whose page is //evil.example/x.
    for (const returnTo of ['//evil.example/x', '/\\evil.example', '/.//evil.example/x', 'https://evil.example/', 'javascript:alert(1)']) {
      expect(signInReturnTo({ returnTo }), returnTo).toBe('/');
    }
    expect(signInReturnTo(undefined)).toBe('/');
    expect(signInReturnTo({ returnTo: 42 })).toBe('/');
  });
});
