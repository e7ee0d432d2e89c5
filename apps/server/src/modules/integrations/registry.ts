import type { IntegrationKind } from '@parley/shared';
import type { Connector } from './connector.js';
import { activeCampaignConnector } from './activecampaign/activeCampaignConnector.js';
import { hubspotConnector } from './hubspot/hubspotConnector.js';
import { pipedriveConnector } from './pipedrive/pipedriveConnector.js';
import { emailConnector } from './email/emailConnector.js';
import { callRailConnector } from './callrail/callRailConnector.js';
import { intercomConnector } from './intercom/intercomConnector.js';
import { aircallConnector } from './aircall/aircallConnector.js';
import { cradleConnector } from './cradle/cradleConnector.js';
import { googleCalendarConnector } from './googlecalendar/googleCalendarConnector.js';

/**
 * The connectors Parley has, by kind. A kind of the spec without one answers as 'not available' (its page
 * says 'Not available yet'); a new connector is added to this list and nowhere else.
 */
const connectors = new Map<IntegrationKind, Connector>([
  [activeCampaignConnector.kind, activeCampaignConnector],
  [hubspotConnector.kind, hubspotConnector],
  [pipedriveConnector.kind, pipedriveConnector],
  [emailConnector.kind, emailConnector],
  [callRailConnector.kind, callRailConnector],
  [intercomConnector.kind, intercomConnector],
  [aircallConnector.kind, aircallConnector],
  [cradleConnector.kind, cradleConnector],
  [googleCalendarConnector.kind, googleCalendarConnector],
]);

export function connectorOf(kind: IntegrationKind): Connector | null {
  return connectors.get(kind) ?? null;
}

export function allConnectors(): Connector[] {
  return [...connectors.values()];
}

/**
 * Puts a connector in for a kind, in place of its own, and answers how to put the kind's own back: how the
 * framework's own tests drive a kind of connection (OAuth) with a connector whose every call they see.
 */
export function standInConnector(connector: Connector): () => void {
  const own = connectors.get(connector.kind);
  connectors.set(connector.kind, connector);
  return () => {
    if (own === undefined) connectors.delete(connector.kind);
    else connectors.set(connector.kind, own);
  };
}
