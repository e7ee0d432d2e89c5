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

  it('takes HELP_CENTER_URL as an http(s) URL only, and leaves it null when unset', () => {
    expect(loadConfig({}, [], '/srv/parley').helpCenterUrl).toBeNull();
    expect(loadConfig({ HELP_CENTER_URL: '' }, [], '/srv/parley').helpCenterUrl).toBeNull();
    expect(loadConfig({ HELP_CENTER_URL: 'https://help.example.com/parley' }, [], '/srv/parley').helpCenterUrl).toBe('https://help.example.com/parley');
    expect(loadConfig({ HELP_CENTER_URL: 'http://intranet.local/help' }, [], '/srv/parley').helpCenterUrl).toBe('http://intranet.local/help');
    for (const bad of ['javascript:alert(1)', 'ftp://help.example.com/', 'help.example.com', 'mailto:help@example.com']) {
      expect(problems({ HELP_CENTER_URL: bad }), bad).toEqual(['HELP_CENTER_URL: must be an absolute http(s) URL']);
    }
  });

  it('embeds an external feature board only with the secret it checks sign-on tokens with', () => {
    expect(loadConfig({}, [], '/srv/parley').featureBoard).toEqual({ url: null, secret: null });
    const secret = 's'.repeat(32);
    expect(loadConfig({ FEATURE_BOARD_URL: 'https://board.example.com/b', FEATURE_BOARD_SECRET: secret }, [], '/srv/parley').featureBoard).toEqual({
      url: 'https://board.example.com/b',
      secret,
    });
    expect(problems({ FEATURE_BOARD_URL: 'https://board.example.com/b' })).toEqual([
      'FEATURE_BOARD_SECRET: is required when FEATURE_BOARD_URL is set (the external board checks the sign-on token with it)',
    ]);
    expect(problems({ FEATURE_BOARD_URL: 'ftp://board.example.com', FEATURE_BOARD_SECRET: secret })).toEqual(['FEATURE_BOARD_URL: must be an absolute http(s) URL']);
    expect(problems({ FEATURE_BOARD_SECRET: 'short' })[0]).toMatch(/^FEATURE_BOARD_SECRET: must be at least 32 characters/);
  });

  it('reads OIDC_EXTRA_WEB_ORIGINS as a list of origins', () => {
    expect(loadConfig({}).identity.extraWebOrigins).toEqual([]);
    const config = loadConfig({ OIDC_EXTRA_WEB_ORIGINS: 'https://sms.example.com, http://localhost:8080/,https://sms.example.com' });
    expect(config.identity.extraWebOrigins).toEqual(['https://sms.example.com', 'http://localhost:8080']);
    for (const bad of ['sms.example.com', 'https://sms.example.com/app', 'ftp://sms.example.com']) {
      expect(problems({ OIDC_EXTRA_WEB_ORIGINS: bad })[0], bad).toMatch(/^OIDC_EXTRA_WEB_ORIGINS: must be a comma-separated list of origins/);
    }
  });

  it('reads FETCH_ALLOWED_HOSTS as host names, addresses and blocks, and refuses anything else', () => {
    expect(loadConfig({}, [], '/srv').fetch).toEqual({ allowedHosts: [] });
    expect(loadConfig({ FETCH_ALLOWED_HOSTS: ' CRM.corp.example, *.carrier.internal,10.0.0.0/8,, 192.168.1.10 ,fd00::/8' }, [], '/srv').fetch).toEqual({
      allowedHosts: ['crm.corp.example', '*.carrier.internal', '10.0.0.0/8', '192.168.1.10', 'fd00::/8'],
    });
    expect(problems({ FETCH_ALLOWED_HOSTS: 'crm.corp.example,https://crm.corp.example,10.0.0.0/40' })).toEqual([
      'FETCH_ALLOWED_HOSTS: must be a comma-separated list of host names (*.example.com for every name below one), IP addresses and CIDR blocks such as 10.0.0.0/8 (not: https://crm.corp.example, 10.0.0.0/40)',
    ]);
  });

  it('turns inbound mail on with INBOUND_MAIL_DOMAIN only, and refuses its settings without it', () => {
    expect(loadConfig({}, [], '/srv/parley').inboundMail).toBeNull();
    expect(loadConfig({ INBOUND_MAIL_DOMAIN: 'In.Example.com', INBOUND_SMTP_PORT: '2525', INBOUND_MAIL_WEBHOOK_SECRET: 'sixteen-chars-at-least' }, [], '/srv/parley').inboundMail).toEqual({
      domain: 'in.example.com',
      smtp: { port: 2525, host: '0.0.0.0', tls: null },
      webhookSecret: 'sixteen-chars-at-least',
    });
    expect(loadConfig({ INBOUND_MAIL_DOMAIN: 'in.example.com' }, [], '/srv/parley').inboundMail).toEqual({ domain: 'in.example.com', smtp: null, webhookSecret: null });
    expect(problems({ INBOUND_SMTP_PORT: '25' })).toEqual(['INBOUND_SMTP_PORT: applies only with INBOUND_MAIL_DOMAIN']);
    expect(problems({ INBOUND_MAIL_DOMAIN: 'in.example.com', INBOUND_SMTP_TLS_CERT_FILE: '/c.pem' })).toEqual(['INBOUND_SMTP_TLS_CERT_FILE: the certificate and INBOUND_SMTP_TLS_KEY_FILE go together']);
    expect(problems({ INBOUND_MAIL_DOMAIN: 'https://in.example.com' })[0]).toMatch(/^INBOUND_MAIL_DOMAIN: /);
  });

  it('takes --services from the command line over SERVICES', () => {
    expect(loadConfig({ SERVICES: 'web' }, ['--services=worker,scheduler']).services).toEqual(['worker', 'scheduler']);
    expect(loadConfig({}, ['--services', 'web']).services).toEqual(['web']);
    expect(problems({}, ['--services=api'])[0]).toMatch(/^--services: /);
    expect(servicesFromArgv(['--port', '1'])).toBeUndefined();
  });

  describe('carriers and secrets', () => {
    const sid = 'AC0123456789abcdef0123456789abcdef';
    const twilioEnv = { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: 'token-0123', PUBLIC_URL: 'https://sms.example.com' };

    it('runs the simulator by default on the embedded database and no carrier on PostgreSQL', () => {
      const embedded = loadConfig({}, [], '/srv/parley');
      expect(embedded.carriers).toEqual({
        simulator: true,
        defaultCarrier: 'simulator',
        smpp: null,
        smppWindow: 10,
        twilio: null,
        twilioApiBaseUrl: 'https://api.twilio.com',
      });
      const postgres = loadConfig({ DATABASE_URL: 'postgres://u@h/db' });
      expect(postgres.carriers.simulator).toBe(false);
      expect(postgres.carriers.defaultCarrier).toBeNull();
      expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', SIMULATOR: 'true' }).carriers.defaultCarrier).toBe('simulator');
      expect(loadConfig({ SIMULATOR: 'false' }).carriers).toMatchObject({ simulator: false, defaultCarrier: null });
    });

    it('reads SMPP_URL with its credentials, TLS and default ports', () => {
      const config = loadConfig({ SMPP_URL: 'smpps://acme:p%40ss%3Aw@smsc.example.net', SMPP_SYSTEM_TYPE: 'VMA', SMPP_WINDOW: '25' });
      expect(config.carriers.smpp).toEqual({
        host: 'smsc.example.net',
        port: 3550,
        systemId: 'acme',
        password: 'p@ss:w',
        tls: true,
        systemType: 'VMA',
      });
      expect(config.carriers.smppWindow).toBe(25);
      expect(loadConfig({ SMPP_URL: 'smpp://acme:secret@10.0.0.5' }).carriers.smpp).toMatchObject({ port: 2775, tls: false, systemType: null });
      expect(loadConfig({ SMPP_URL: 'smpp://acme:secret@[::1]:2776' }).carriers.smpp).toMatchObject({ host: '::1', port: 2776 });
    });

    it('refuses a bad SMPP_URL, naming the variable', () => {
      for (const bad of ['http://acme:secret@smsc', 'smpp://smsc.example.net:2775', 'smpp://acme@smsc', 'smpp://acme:secret@smsc/path', 'nonsense']) {
        expect(problems({ SMPP_URL: bad })[0], bad).toMatch(/^SMPP_URL: must/);
      }
      expect(problems({ SMPP_URL: 'smpp://acme:toolongpassword@smsc' })).toEqual([
        'SMPP_URL: the password must be at most 8 characters (SMPP 3.4)',
      ]);
      expect(problems({ SMPP_URL: 'smpp://a:b@smsc', SMPP_SYSTEM_TYPE: 'a-very-long-type' })).toEqual([
        'SMPP_SYSTEM_TYPE: must be at most 12 characters (SMPP 3.4)',
      ]);
      expect(problems({ SMPP_SYSTEM_TYPE: 'VMA' })).toEqual(['SMPP_SYSTEM_TYPE: applies only with SMPP_URL']);
      expect(problems({ SMPP_URL: 'smpp://a:b@smsc', SMPP_WINDOW: '0' })).toEqual(['SMPP_WINDOW: must be at least 1']);
    });

    it('reads Twilio only with both credentials and PUBLIC_URL', () => {
      const config = loadConfig({ ...twilioEnv, TWILIO_CALLER_ID: '+14155550100', TWILIO_API_BASE_URL: 'http://127.0.0.1:9999/' });
      expect(config.carriers.twilio).toEqual({ accountSid: sid, authToken: 'token-0123', callerId: '+14155550100' });
      expect(config.carriers.twilioApiBaseUrl).toBe('http://127.0.0.1:9999');
      expect(problems({ TWILIO_ACCOUNT_SID: sid, PUBLIC_URL: 'https://sms.example.com' })).toEqual([
        'TWILIO_AUTH_TOKEN: is required when TWILIO_ACCOUNT_SID is set (set both or neither)',
      ]);
      expect(problems({ TWILIO_AUTH_TOKEN: 'x' })).toEqual([
        'TWILIO_ACCOUNT_SID: is required when TWILIO_AUTH_TOKEN is set (set both or neither)',
      ]);
      expect(problems({ ...twilioEnv, PUBLIC_URL: '' })[0]).toMatch(/^PUBLIC_URL: is required with TWILIO_ACCOUNT_SID/);
      expect(problems({ ...twilioEnv, TWILIO_ACCOUNT_SID: 'SK0123' })[0]).toMatch(/^TWILIO_ACCOUNT_SID: must be a Twilio Account SID/);
      expect(problems({ ...twilioEnv, TWILIO_CALLER_ID: '0800 123' })[0]).toMatch(/^TWILIO_CALLER_ID: must be a phone number in E.164/);
      expect(problems({ TWILIO_CALLER_ID: '+14155550100' })).toEqual(['TWILIO_CALLER_ID: applies only with TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN']);
      expect(problems({ ...twilioEnv, TWILIO_API_BASE_URL: 'ftp://x' })[0]).toMatch(/^TWILIO_API_BASE_URL: must be an absolute http\(s\) URL/);
    });

    it("reads HubSpot's app only with both its id and secret, and HubSpot's addresses with defaults", () => {
      expect(loadConfig({}).integrations.hubspot).toEqual({ app: null, apiBaseUrl: 'https://api.hubapi.com', authUrl: 'https://app.hubspot.com/oauth/authorize' });
      const config = loadConfig({ HUBSPOT_CLIENT_ID: 'id-1', HUBSPOT_CLIENT_SECRET: 'secret-1', HUBSPOT_API_BASE_URL: 'http://127.0.0.1:9999/', HUBSPOT_AUTH_URL: 'http://127.0.0.1:9999/oauth/authorize' });
      expect(config.integrations.hubspot).toEqual({ app: { clientId: 'id-1', clientSecret: 'secret-1' }, apiBaseUrl: 'http://127.0.0.1:9999', authUrl: 'http://127.0.0.1:9999/oauth/authorize' });
      expect(problems({ HUBSPOT_CLIENT_ID: 'id-1' })).toEqual(['HUBSPOT_CLIENT_SECRET: is required when HUBSPOT_CLIENT_ID is set (set both or neither)']);
      expect(problems({ HUBSPOT_CLIENT_SECRET: 'x' })).toEqual(['HUBSPOT_CLIENT_ID: is required when HUBSPOT_CLIENT_SECRET is set (set both or neither)']);
      expect(problems({ HUBSPOT_API_BASE_URL: 'ftp://x' })[0]).toMatch(/^HUBSPOT_API_BASE_URL: must be an absolute http\(s\) URL/);
    });

    it('chooses the default carrier and refuses one that is not configured', () => {
      expect(loadConfig({ ...twilioEnv, CARRIER: 'twilio' }).carriers.defaultCarrier).toBe('twilio');
      expect(loadConfig({ ...twilioEnv, SIMULATOR: 'false' }).carriers.defaultCarrier).toBe('twilio');
      expect(loadConfig({ SMPP_URL: 'smpp://a:b@smsc', DATABASE_URL: 'postgres://u@h/db' }).carriers.defaultCarrier).toBe('smpp');
      expect(problems({ CARRIER: 'smpp' })).toEqual(['CARRIER: smpp is not configured (set SMPP_URL)']);
      expect(problems({ CARRIER: 'twilio' })).toEqual(['CARRIER: twilio is not configured (set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN)']);
      expect(problems({ CARRIER: 'simulator', SIMULATOR: 'false' })).toEqual(['CARRIER: simulator is not configured (set SIMULATOR=true)']);
      expect(problems({ CARRIER: 'nexmo' })).toEqual(['CARRIER: must be simulator, smpp or twilio']);
      expect(problems({ ...twilioEnv, SMPP_URL: 'smpp://a:b@smsc', SIMULATOR: 'false' })).toEqual([
        'CARRIER: is required when both SMPP and Twilio are configured (smpp or twilio)',
      ]);
      expect(problems({ SIMULATOR: 'perhaps' })).toEqual(['SIMULATOR: must be true or false']);
    });

    it('takes SECRETS_KEY as hex or base64 and otherwise keeps a key file on the embedded database only', () => {
      const key = Buffer.alloc(32, 7);
      expect(loadConfig({ SECRETS_KEY: key.toString('hex') }).secrets).toEqual({ key, keyFile: null });
      expect(loadConfig({ SECRETS_KEY: key.toString('base64') }).secrets.key).toEqual(key);
      expect(loadConfig({ SECRETS_KEY: key.toString('base64url') }).secrets.key).toEqual(key);
      expect(loadConfig({}, [], '/srv/parley').secrets).toEqual({ key: null, keyFile: '/srv/parley/data/secrets.key' });
      expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).secrets).toEqual({ key: null, keyFile: null });
      for (const bad of ['short', Buffer.alloc(16).toString('hex'), Buffer.alloc(31).toString('base64'), 'z'.repeat(64)]) {
        expect(problems({ SECRETS_KEY: bad })[0], bad).toMatch(/^SECRETS_KEY: must be 32 random bytes/);
      }
    });
  });

  it('chooses the sandbox payment provider by default, and Stripe with its keys and webhook secret', () => {
    expect(loadConfig({}).billing.payments).toEqual({ provider: 'sandbox' });
    const keys = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' };
    const stripe = loadConfig({ PAYMENTS_PROVIDER: 'stripe', ...keys });
    expect(stripe.billing.payments).toEqual({ provider: 'stripe', secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123', publishableKey: 'pk_test_abc123', api: null });
    expect(loadConfig({ PAYMENTS_PROVIDER: 'stripe', ...keys, STRIPE_PUBLISHABLE_KEY: 'pk_live_Xy9' }).billing.payments).toMatchObject({ publishableKey: 'pk_live_Xy9' });
    const local = loadConfig({
      PAYMENTS_PROVIDER: 'stripe',
      ...keys,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: '12111',
      STRIPE_API_PROTOCOL: 'http',
    });
    expect(local.billing.payments).toMatchObject({ api: { host: '127.0.0.1', port: 12111, protocol: 'http' } });
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'stripe' })).toThrow(
      /STRIPE_SECRET_KEY: is required[\s\S]*STRIPE_WEBHOOK_SECRET: is required[\s\S]*STRIPE_PUBLISHABLE_KEY: is required/,
    );
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc123' })).toThrow(/STRIPE_SECRET_KEY: applies only with PAYMENTS_PROVIDER=stripe/);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER: must be sandbox or stripe/);
    expect(() => loadConfig({ PAYMENTS_PROVIDER: 'stripe', ...keys, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret/);
  });

  it('refuses Stripe without its publishable key, with a malformed one, or with one and the sandbox', () => {
    const secrets = { PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    expect(problems(secrets)).toEqual(["STRIPE_PUBLISHABLE_KEY: is required with PAYMENTS_PROVIDER=stripe (the web app's card form runs Stripe.js with it)"]);
    // A secret key in its place would be handed to every browser: refused like any other malformed key.
    for (const bad of ['sk_test_abc123', 'rk_live_abc123', 'pk_abc123', 'pk_test_', 'pk_prod_abc123', 'pk_test_abc 123']) {
      expect(problems({ ...secrets, STRIPE_PUBLISHABLE_KEY: bad }), bad).toEqual(['STRIPE_PUBLISHABLE_KEY: must be a Stripe publishable key (pk_live_... or pk_test_...)']);
    }
    expect(problems({ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' })).toEqual(['STRIPE_PUBLISHABLE_KEY: applies only with PAYMENTS_PROVIDER=stripe']);
  });

  it('is documented: docs/configuration.md lists every variable', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/configuration.md'), 'utf8');
    const missing = configVariableNames.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
