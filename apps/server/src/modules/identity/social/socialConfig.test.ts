import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../platform/config.js';

const google = { id: 'google', name: 'Google', issuer: 'https://accounts.google.com', clientId: 'id-1', clientSecret: 'secret-1' };

function problems(value: unknown, env: Record<string, string> = {}): readonly string[] {
  try {
    loadConfig({ SOCIAL_PROVIDERS: typeof value === 'string' ? value : JSON.stringify(value), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('SOCIAL_PROVIDERS', () => {
  it('is empty when unset and reads providers with their default scopes', () => {
    expect(loadConfig({}).identity.socialProviders).toEqual([]);
    const local = { id: 'local-idp', name: 'Local', issuer: 'http://localhost:9000/realms/x', clientId: 'parley' };
    const config = loadConfig({ SOCIAL_PROVIDERS: JSON.stringify([google, local]) });
    expect(config.identity.socialProviders).toEqual([
      { ...google, scopes: 'openid email profile' },
      { ...local, scopes: 'openid email profile' },
    ]);
  });

  it('names the variable, the entry and the field of every bad value', () => {
    expect(problems('{not json')[0]).toMatch(/^SOCIAL_PROVIDERS: must be a JSON array/);
    expect(problems(google)[0]).toMatch(/^SOCIAL_PROVIDERS: must be a JSON array/);
    expect(problems(['google'])).toEqual(['SOCIAL_PROVIDERS: entry 1: must be an object']);
    expect(problems([{ ...google, clientId: undefined }])).toEqual(['SOCIAL_PROVIDERS: entry 1 (google): clientId is required']);
    expect(problems([google, { ...google, issuer: 'http://idp.example.com' }])).toEqual([
      'SOCIAL_PROVIDERS: entry 2 (google): issuer must be an https URL (http only on localhost)',
    ]);
    expect(problems([{ ...google, id: 'Google Accounts' }])[0]).toMatch(/^SOCIAL_PROVIDERS: entry 1 \(Google Accounts\): id must be 1 to 32 lowercase/);
    expect(problems([{ ...google, client_secret: 'x' }])[0]).toMatch(/^SOCIAL_PROVIDERS: entry 1 \(google\): client_secret unknown/);
    expect(problems([{ ...google, scopes: 'email profile' }])).toEqual(['SOCIAL_PROVIDERS: entry 1 (google): scopes must include openid']);
    expect(problems([{ ...google, name: 42 }])).toEqual(['SOCIAL_PROVIDERS: entry 1 (google): name must be a string']);
    expect(problems([google, google])).toEqual(['SOCIAL_PROVIDERS: entry 2 (google): id is used twice']);
  });

  it('belongs to the embedded issuer: refused together with OIDC_ISSUER', () => {
    expect(problems([google], { OIDC_ISSUER: 'https://idp.example.com' })).toEqual([
      'SOCIAL_PROVIDERS: applies to the embedded issuer only; with OIDC_ISSUER set, configure social sign-in at that issuer',
    ]);
  });
});
