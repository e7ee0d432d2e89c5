import { googleCalendarEnv } from '../apps/server/src/modules/integrations/googlecalendar/test/googleCalendarPeer.js';
import { freePort } from './parleyServer.js';

/*
 * The integrations' local peers of the shared server (globalSetup.ts). The server is configured before the
 * tests run, so each peer's address is chosen up front: globalSetup takes a free port per peer, configures
 * the server with it (peerServerEnv) and hands the ports to the workers (E2E_PEER_PORTS). A spec starts its
 * peer on its port (peerPorts()) with the app below, and reads the peer's state as before.
 */

export const peerNames = ['activeCampaign', 'aircall', 'callRail', 'cradle', 'googleCalendar', 'hubspot', 'intercom', 'pipedrive', 'twilio', 'inboundSmtp'] as const;
export type PeerName = (typeof peerNames)[number];
export type PeerPorts = Record<PeerName, number>;

/** The OAuth apps the server is configured with, which the peers know. */
export const peerApps = {
  aircall: { clientId: 'e2e-aircall-client', clientSecret: 'e2e-aircall-secret' },
  googleCalendar: { clientId: 'e2e-calendar.apps.googleusercontent.com', clientSecret: 'GOCSPX-e2e-secret' },
  hubspot: { clientId: 'e2e-hubspot-client', clientSecret: 'e2e-hubspot-secret' },
  intercom: { clientId: 'e2e-intercom-client', clientSecret: 'e2e-intercom-secret' },
  pipedrive: { clientId: 'e2e-pipedrive-client', clientSecret: 'e2e-pipedrive-secret' },
} as const;

/** The secret Pipedrive signs its app extension's links with (PIPEDRIVE_JWT_SECRET). */
export const pipedriveJwtSecret = 'pipedrive-app-extension-secret-e2e';
/** The domain of the accounts' inbound mail addresses; the SMTP listener is on the inboundSmtp port. */
export const inboundMailDomain = 'in.parley.test';

export const peerUrl = (port: number): string => `http://127.0.0.1:${String(port)}`;

/** A free port per peer, none of them one of `taken` (ports chosen before and freed again). */
export async function choosePeerPorts(taken: readonly number[]): Promise<PeerPorts> {
  const chosen = new Set(taken);
  const entries: [PeerName, number][] = [];
  for (const name of peerNames) {
    let port = await freePort();
    while (chosen.has(port)) port = await freePort();
    chosen.add(port);
    entries.push([name, port]);
  }
  return Object.fromEntries(entries) as PeerPorts;
}

/** The server's configuration for every peer, as each integration's documentation names it. */
export function peerServerEnv(ports: PeerPorts): Record<string, string> {
  const url = (name: PeerName): string => peerUrl(ports[name]);
  return {
    ACTIVECAMPAIGN_API_BASE_URL: url('activeCampaign'),
    AIRCALL_CLIENT_ID: peerApps.aircall.clientId,
    AIRCALL_CLIENT_SECRET: peerApps.aircall.clientSecret,
    AIRCALL_API_BASE_URL: url('aircall'),
    AIRCALL_OAUTH_BASE_URL: url('aircall'),
    CALLRAIL_API_BASE_URL: url('callRail'),
    CRADLE_API_BASE_URL: url('cradle'),
    ...googleCalendarEnv({ ...peerApps.googleCalendar, url: url('googleCalendar') }),
    HUBSPOT_CLIENT_ID: peerApps.hubspot.clientId,
    HUBSPOT_CLIENT_SECRET: peerApps.hubspot.clientSecret,
    HUBSPOT_API_BASE_URL: url('hubspot'),
    HUBSPOT_AUTH_URL: `${url('hubspot')}/oauth/authorize`,
    INTERCOM_CLIENT_ID: peerApps.intercom.clientId,
    INTERCOM_CLIENT_SECRET: peerApps.intercom.clientSecret,
    INTERCOM_API_BASE_URL: url('intercom'),
    INTERCOM_OAUTH_BASE_URL: url('intercom'),
    PIPEDRIVE_CLIENT_ID: peerApps.pipedrive.clientId,
    PIPEDRIVE_CLIENT_SECRET: peerApps.pipedrive.clientSecret,
    PIPEDRIVE_API_BASE_URL: url('pipedrive'),
    PIPEDRIVE_OAUTH_BASE_URL: url('pipedrive'),
    PIPEDRIVE_JWT_SECRET: pipedriveJwtSecret,
    TWILIO_API_BASE_URL: url('twilio'),
    INBOUND_MAIL_DOMAIN: inboundMailDomain,
    INBOUND_SMTP_PORT: String(ports.inboundSmtp),
    INBOUND_SMTP_HOST: '127.0.0.1',
  };
}

/** In a worker: the ports globalSetup chose. */
export function peerPorts(): PeerPorts {
  const given = process.env.E2E_PEER_PORTS;
  if (given === undefined) throw new Error('E2E_PEER_PORTS is not set: the global setup (e2e/globalSetup.ts) sets it');
  return JSON.parse(given) as PeerPorts;
}
