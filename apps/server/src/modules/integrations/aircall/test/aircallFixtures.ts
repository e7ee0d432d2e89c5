import { expect } from 'vitest';
import type { IntegrationHarness } from '../../test/integrationHarness.js';
import type { AirCallPeer, PeerCall, PeerNumber } from './aircallPeer.js';

/** Configuration pointing AirCall at the peer. */
export const aircallEnv = (peer: AirCallPeer): Record<string, string> => ({
  AIRCALL_CLIENT_ID: peer.clientId,
  AIRCALL_CLIENT_SECRET: peer.clientSecret,
  AIRCALL_API_BASE_URL: peer.url,
  AIRCALL_OAUTH_BASE_URL: peer.url,
});

/** The OAuth dance as a browser makes it: start, the peer's authorize page, the callback. Answers where the callback sent the browser. */
export async function connectAirCall(h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> {
  const start = await h.call('GET', `/v1/accounts/${accountId}/integrations/aircall/oauth/start`, token);
  expect(start.statusCode, start.body).toBe(200);
  const authorize = await fetch(start.json<{ data: { url: string } }>().data.url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location') ?? '');
  if (tamper) back.searchParams.set('state', `${back.searchParams.get('state') ?? ''}x`);
  const callback = await h.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(callback.statusCode).toBe(302);
  return String(callback.headers.location);
}

/** "+14155550123" as AirCall writes digits: "+1 415-555-0123". */
export const spaced = (e164: string): string => `${e164.slice(0, 2)} ${e164.slice(2, 5)}-${e164.slice(5, 8)}-${e164.slice(8)}`;

let serial = 0;

/** A call to `line` from `caller`, missed and ended unless `overrides` says otherwise. */
export function peerCall(line: PeerNumber, caller: string, overrides: Partial<PeerCall> = {}): PeerCall {
  serial += 1;
  const at = Math.floor(Date.now() / 1000) - 120;
  return {
    id: 900_000_000 + Math.floor(Math.random() * 90_000_000) + serial,
    direction: 'inbound',
    status: 'done',
    started_at: at,
    answered_at: null,
    ended_at: at + 20,
    duration: 20,
    raw_digits: spaced(caller),
    voicemail: null,
    recording: null,
    missed_call_reason: 'agents_did_not_answer',
    number: line,
    user: null,
    contact: { first_name: 'Vera', last_name: 'Voice' },
    ...overrides,
  };
}
