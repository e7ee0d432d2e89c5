import { and, eq } from 'drizzle-orm';
import { integrations } from '../../../../platform/db/schema/index.js';
import { uniqueTestNumber } from '../../../../test/phoneNumbers.js';
import type { ConnectorSession } from '../../connector.js';
import { sessionOf } from '../../integrationStore.js';
import { connectThroughOAuth, type IntegrationHarness } from '../../test/integrationHarness.js';
import { pipedriveConnector } from '../pipedriveConnector.js';
import type { PeerPerson, PipedrivePeer } from './pipedrivePeer.js';

/** Configuration pointing Pipedrive at the peer. */
export const pipedriveEnv = (peer: PipedrivePeer, jwtSecret: string): Record<string, string> => ({
  PIPEDRIVE_CLIENT_ID: peer.clientId,
  PIPEDRIVE_CLIENT_SECRET: peer.clientSecret,
  PIPEDRIVE_API_BASE_URL: peer.url,
  PIPEDRIVE_OAUTH_BASE_URL: peer.url,
  PIPEDRIVE_JWT_SECRET: jwtSecret,
});

export const peerPerson = (id: number, overrides: Partial<PeerPerson> = {}): PeerPerson => ({
  id,
  name: `First${String(id)} Last${String(id)}`,
  first_name: `First${String(id)}`,
  last_name: `Last${String(id)}`,
  emails: [{ value: `p${String(id)}@pd.example`, primary: true, label: 'work' }],
  phones: [{ value: uniqueTestNumber(), primary: true, label: 'mobile' }],
  ...overrides,
});

/** The OAuth dance through the peer (connectThroughOAuth). */
export const connectPipedrive = (h: IntegrationHarness, accountId: string, token: string, tamper = false): Promise<string> =>
  connectThroughOAuth(h, 'pipedrive', accountId, token, tamper);

/** A session as the framework's jobs make one, for calling the connector's functions directly. */
export async function pipedriveSession(h: IntegrationHarness, accountId: string): Promise<ConnectorSession> {
  const [row] = await h.database.db.select().from(integrations).where(and(eq(integrations.accountId, accountId), eq(integrations.kind, 'pipedrive')));
  if (row === undefined) throw new Error('Pipedrive is not connected');
  return sessionOf(h.deps, pipedriveConnector, row);
}
