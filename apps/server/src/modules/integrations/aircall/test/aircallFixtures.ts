import { connectThroughOAuth, type IntegrationHarness } from '../../test/integrationHarness.js';
import type { AirCallPeer, PeerCall, PeerNumber } from './aircallPeer.js';

/** Configuration pointing AirCall at the peer. */
export const aircallEnv = (peer: AirCallPeer): Record<string, string> => ({
  AIRCALL_CLIENT_ID: peer.clientId,
  AIRCALL_CLIENT_SECRET: peer.clientSecret,
  AIRCALL_API_BASE_URL: peer.url,
  AIRCALL_OAUTH_BASE_URL: peer.url,
});

/** The OAuth dance through the peer (connectThroughOAuth). */
export const connectAirCall = (h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> =>
  connectThroughOAuth(h, 'aircall', accountId, token, tamper);

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
