import type { IntegrationKind } from '@parley/shared';
import type { Connector } from './connector.js';
import { activeCampaignConnector } from './activecampaign/activeCampaignConnector.js';

/**
 * The connectors Parley has, by kind. A kind of the spec without one answers as 'not available' (its page
 * says 'Not available yet'); a new connector is added here and nowhere else.
 */
const connectors: ReadonlyMap<IntegrationKind, Connector> = new Map<IntegrationKind, Connector>([[activeCampaignConnector.kind, activeCampaignConnector]]);

export function connectorOf(kind: IntegrationKind): Connector | null {
  return connectors.get(kind) ?? null;
}

export function allConnectors(): Connector[] {
  return [...connectors.values()];
}
