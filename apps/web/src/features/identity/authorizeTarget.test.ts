import { describe, expect, it } from 'vitest';
import { authorizeTarget } from './AuthorizePage';

const origin = 'https://parley.example';
const local = 'http://localhost:3000';

/** Where the browser ends up when the page is sent to `target` (window.location.replace resolves it so). */
const landsOn = (target: string, from: string): string => new URL(target, from).origin;

describe('authorizeTarget', () => {
  it('adds the account id to a same-site target', () => {
    expect(authorizeTarget('/integrations/hubspot?x=1', 'acc-1', origin)).toBe('/integrations/hubspot?x=1&accountId=acc-1');
    expect(authorizeTarget('https://parley.example/campaigns#top', 'acc-1', origin)).toBe('/campaigns?accountId=acc-1#top');
  });

  it('refuses other sites and empty targets', () => {
    expect(authorizeTarget('https://evil.example/steal', 'acc-1', origin)).toBeNull();
    expect(authorizeTarget('//evil.example/steal', 'acc-1', origin)).toBeNull();
    expect(authorizeTarget('', 'acc-1', origin)).toBeNull();
    expect(authorizeTarget(null, 'acc-1', origin)).toBeNull();
  });

  it('never sends the account id to another site through a path that reads as a host', () => {
    const cases = [
      ['/.//evil.example/x', local],
      ['http://localhost:3000//evil.example/x', local],
      ['/\\evil.example', local],
      ['%2F%2Fevil.example', local],
      ['javascript:alert(document.domain)', local],
      ['/..//evil.example/x', origin],
      ['https://parley.example/.//evil.example/x', origin],
      ['/\t/evil.example', origin],
    ] as const;
    for (const [redirectTo, from] of cases) {
      const target = authorizeTarget(redirectTo, 'acc-1', from);
      if (target !== null) expect(landsOn(target, from), redirectTo).toBe(from);
    }
    expect(authorizeTarget('/.//evil.example/x', 'acc-1', local)).toBeNull();
    expect(authorizeTarget('http://localhost:3000//evil.example/x', 'acc-1', local)).toBeNull();
    expect(authorizeTarget('javascript:alert(document.domain)', 'acc-1', local)).toBeNull();
  });
});
