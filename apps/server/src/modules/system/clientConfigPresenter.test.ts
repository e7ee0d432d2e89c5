import { clientConfigSchema } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/config.js';
import { presentClientConfig } from './clientConfigPresenter.js';

describe('presentClientConfig', () => {
  it('says whether the database is the embedded one, on either database', () => {
    const embedded = presentClientConfig(testConfig(), 'pglite', ['simulator']);
    expect(embedded.embedded).toBe(true);
    expect(clientConfigSchema.parse(embedded)).toEqual(embedded);

    const postgres = presentClientConfig(
      testConfig({ DATABASE_URL: 'postgres://parley@127.0.0.1:5432/parley', SECRETS_KEY: 'a'.repeat(64) }),
      'postgres',
      ['simulator'],
    );
    expect(postgres.embedded).toBe(false);
    expect(clientConfigSchema.parse(postgres)).toEqual(postgres);
  });

  it('passes the help centre on, or null when it is not configured', () => {
    expect(presentClientConfig(testConfig(), 'pglite', ['simulator']).helpCenterUrl).toBeNull();
    const help = presentClientConfig(testConfig({ HELP_CENTER_URL: 'https://help.example.com/parley' }), 'pglite', ['simulator']);
    expect(help.helpCenterUrl).toBe('https://help.example.com/parley');
    expect(clientConfigSchema.parse(help)).toEqual(help);
  });

  it('names the payment provider, with Stripe its publishable key and no secret', () => {
    const sandbox = presentClientConfig(testConfig(), 'pglite', ['simulator']);
    expect(sandbox.payments).toEqual({ provider: 'sandbox', stripePublishableKey: null });
    const stripe = presentClientConfig(
      testConfig({ PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_secret1', STRIPE_WEBHOOK_SECRET: 'whsec_secret2', STRIPE_PUBLISHABLE_KEY: 'pk_test_public3' }),
      'pglite',
      ['simulator'],
    );
    expect(stripe.payments).toEqual({ provider: 'stripe', stripePublishableKey: 'pk_test_public3' });
    expect(clientConfigSchema.parse(stripe)).toEqual(stripe);
    const text = JSON.stringify(stripe);
    expect(text).not.toContain('sk_test_secret1');
    expect(text).not.toContain('whsec_secret2');
  });
});
