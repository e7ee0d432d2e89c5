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
});
