import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariableNames, loadConfig, servicesFromArgv } from './config.js';

function problems(env: Record<string, string>, argv: string[] = []): readonly string[] {
  try {
    loadConfig(env, argv, '/srv/parley');
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({}, [], '/srv/parley', '1.2.3');
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/srv/parley/data');
    expect(config.databaseUrl).toBeNull();
    expect(config.services).toEqual(['web', 'worker', 'scheduler']);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.pageViews).toEqual({ sink: 'off', url: null });
    expect(config.devAuth).toBe(false);
    expect(config.version).toBe('1.2.3');
  });

  it('reads values and treats empty strings as unset', () => {
    const config = loadConfig(
      { PORT: '8080', DATA_DIR: '/var/lib/parley', DATABASE_URL: 'postgres://u@h/db', DEV_AUTH: 'true', HOST: '' },
      [],
      '/srv',
    );
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe('/var/lib/parley');
    expect(config.databaseUrl).toBe('postgres://u@h/db');
    expect(config.devAuth).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('names the variable of every bad value', () => {
    expect(problems({ PORT: 'abc' })).toEqual(['PORT: must be a port number']);
    expect(problems({ PORT: '70000' })[0]).toMatch(/^PORT: /);
    expect(problems({ DATABASE_URL: 'mysql://x' })).toEqual([
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
    ]);
    expect(problems({ DEV_AUTH: 'maybe' })).toEqual(['DEV_AUTH: must be true or false']);
    expect(problems({ LOG_LEVEL: 'loud', PORT: '-1' }).map((p) => p.split(':')[0])).toEqual(['PORT', 'LOG_LEVEL']);
    expect(problems({ SERVICES: 'web,mailer' })[0]).toMatch(/^SERVICES: .*unknown: mailer/);
    expect(problems({ PAGE_VIEWS_SINK: 'beacon' })).toEqual(['PAGE_VIEWS_URL: is required when PAGE_VIEWS_SINK is beacon']);
  });

  it('reads OIDC_EXTRA_WEB_ORIGINS as a list of origins', () => {
    expect(loadConfig({}).identity.extraWebOrigins).toEqual([]);
    const config = loadConfig({ OIDC_EXTRA_WEB_ORIGINS: 'https://sms.example.com, http://localhost:8080/,https://sms.example.com' });
    expect(config.identity.extraWebOrigins).toEqual(['https://sms.example.com', 'http://localhost:8080']);
    for (const bad of ['sms.example.com', 'https://sms.example.com/app', 'ftp://sms.example.com']) {
      expect(problems({ OIDC_EXTRA_WEB_ORIGINS: bad })[0], bad).toMatch(/^OIDC_EXTRA_WEB_ORIGINS: must be a comma-separated list of origins/);
    }
  });

  it('takes --services from the command line over SERVICES', () => {
    expect(loadConfig({ SERVICES: 'web' }, ['--services=worker,scheduler']).services).toEqual(['worker', 'scheduler']);
    expect(loadConfig({}, ['--services', 'web']).services).toEqual(['web']);
    expect(problems({}, ['--services=api'])[0]).toMatch(/^--services: /);
    expect(servicesFromArgv(['--port', '1'])).toBeUndefined();
  });

  it('is documented: docs/configuration.md lists every variable', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/configuration.md'), 'utf8');
    const missing = configVariableNames.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
