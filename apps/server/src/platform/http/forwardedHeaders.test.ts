import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { SIGN_UP_RATE_LIMIT } from '../../modules/identity/routes/signup.js';
import { startIssuerServer } from '../../test/identity.js';
import type { TestServer } from '../../test/server.js';

/*
 * X-Forwarded-For, -Host and -Proto say who the client is and where it came in only when a reverse proxy
 * we trust (TRUST_PROXY) wrote them; from anyone else they change nothing (docs/security.md).
 */

const spoofed = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

const discovery = async (server: TestServer, headers: Record<string, string>): Promise<Record<string, unknown>> =>
  (await (await fetch(`${server.baseUrl}/oidc/.well-known/openid-configuration`, { headers })).json()) as Record<string, unknown>;

const signUp = (server: TestServer, ip: string) =>
  fetch(`${server.baseUrl}/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email: 'not an address' }),
  });

describe('forwarded headers without a trusted proxy (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startIssuerServer('pglite', { TRUST_PROXY: '' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("keep the sign-in pages' addresses on the server's own", async () => {
    const metadata = await discovery(server, spoofed);
    expect(JSON.stringify(metadata)).not.toContain('evil.example');
    expect(metadata.authorization_endpoint).toBe(`${server.config.identity.issuer}/auth`);
    expect(metadata.token_endpoint).toBe(`${server.config.identity.issuer}/token`);
  });

  it('do not make a new client of one that used up its attempts', async () => {
    for (let i = 0; i < SIGN_UP_RATE_LIMIT; i++) expect((await signUp(server, `203.0.113.${String(i)}`)).status).toBe(400);
    const next = await signUp(server, '198.51.100.77');
    expect(next.status).toBe(429);
  });
});

describe('forwarded headers from a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startIssuerServer('pglite', { TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("give the client's scheme and host to the sign-in pages", async () => {
    const metadata = await discovery(server, { 'x-forwarded-host': 'sms.example.test', 'x-forwarded-proto': 'https' });
    expect(metadata.authorization_endpoint).toBe('https://sms.example.test/oidc/auth');
  });

  it("give each client's address its own allowance", async () => {
    for (let i = 0; i < SIGN_UP_RATE_LIMIT; i++) expect((await signUp(server, '203.0.113.9')).status).toBe(400);
    expect((await signUp(server, '203.0.113.9')).status).toBe(429);
    expect((await signUp(server, '198.51.100.78')).status).toBe(400);
  });
});

describe('TRUST_PROXY', () => {
  const parse = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('takes addresses, ranges, named ranges or a number of hops', () => {
    expect(parse('')).toBe(false);
    expect(parse('false')).toBe(false);
    expect(parse('127.0.0.1, 10.0.0.0/8,::1,fd00::/8')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
    expect(parse('loopback,uniquelocal')).toEqual(['loopback', 'uniquelocal']);
    expect(parse('2')).toBe(2);
  });

  it('refuses trusting everyone and what is not an address', () => {
    expect(() => parse('true')).toThrow(/TRUST_PROXY: must list the reverse proxies/);
    expect(() => parse('proxy.example.com')).toThrow(/not an address or range: proxy\.example\.com/);
    expect(() => parse('10.0.0.0/33')).toThrow(/not an address or range: 10\.0\.0\.0\/33/);
  });
});
