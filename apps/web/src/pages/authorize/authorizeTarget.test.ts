import { describe, expect, it } from 'vitest';
import { authorizeTarget } from './AuthorizePage';

const origin = 'https://parley.example';

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
});
