import { clientConfigSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { isClientConfig } from './clientConfigGuard';

const valid = {
  version: '1.0.0',
  embedded: true,
  publicUrl: 'http://localhost:3000',
  simulator: true,
  pageViews: { sink: 'off', url: null },
  helpCenterUrl: null,
  payments: { provider: 'sandbox', stripePublishableKey: null },
  realtime: { path: '/socket.io', devAuth: false },
  auth: { issuer: 'http://localhost:3000/oidc', clientId: 'parley-web', scopes: 'openid', socialProviders: [{ id: 'google', name: 'Google' }] },
};

describe('isClientConfig', () => {
  it('accepts what the shared schema accepts', () => {
    expect(clientConfigSchema.safeParse(valid).success).toBe(true);
    expect(isClientConfig(valid)).toBe(true);
    const withHelp = { ...valid, helpCenterUrl: 'https://help.example.com/' };
    expect(clientConfigSchema.safeParse(withHelp).success).toBe(true);
    expect(isClientConfig(withHelp)).toBe(true);
    const withStripe = { ...valid, payments: { provider: 'stripe', stripePublishableKey: 'pk_test_abc' } };
    expect(clientConfigSchema.safeParse(withStripe).success).toBe(true);
    expect(isClientConfig(withStripe)).toBe(true);
  });

  it('refuses what the shared schema refuses', () => {
    const broken = [
      null,
      'config',
      { ...valid, version: 1 },
      { ...valid, publicUrl: undefined },
      { ...valid, simulator: 'yes' },
      { ...valid, helpCenterUrl: undefined },
      { ...valid, helpCenterUrl: 42 },
      { ...valid, pageViews: { sink: 'loud', url: null } },
      { ...valid, payments: undefined },
      { ...valid, payments: { provider: 'paypal', stripePublishableKey: null } },
      { ...valid, payments: { provider: 'stripe' } },
      { ...valid, payments: { provider: 'stripe', stripePublishableKey: 42 } },
      { ...valid, realtime: { path: '/socket.io' } },
      { ...valid, auth: { issuer: 'x', clientId: 'y' } },
      { ...valid, auth: { ...valid.auth, socialProviders: undefined } },
      { ...valid, auth: { ...valid.auth, socialProviders: [{ id: 'google' }] } },
      { ...valid, auth: undefined },
    ];
    for (const value of broken) {
      expect(clientConfigSchema.safeParse(value).success).toBe(false);
      expect(isClientConfig(value)).toBe(false);
    }
  });
});
