import { HUBSPOT_DEFAULT_PROPERTIES, hubspotPropertiesSchema, normaliseContactMobile } from '@parley/shared';
import type { Connector, ConnectorSession, MessageActivity, OAuthTokens } from '../connector.js';
import { createHubSpotContact, logHubSpotCommunication, pageHubSpotContacts, searchHubSpotContactsByPhone } from './hubspotApi.js';
import type { HubSpotConnection } from './hubspotClient.js';
import { HubSpotRequestError } from './hubspotErrors.js';
import { chooseHubSpotMobile, hubspotPhoneProperties } from './hubspotMobile.js';
import { exchangeHubSpotCode, hubspotAuthorizeUrl, refreshHubSpotToken, revokeHubSpotToken, type HubSpotTokens } from './hubspotOAuth.js';
import { hubspotApp, hubspotConnection, hubspotOperatorHosts, hubspotPropertiesOf, viaHubSpot } from './hubspotSession.js';
import { verifyHubSpotSignatureV3 } from './hubspotSignature.js';
import { pageHubSpotTags } from './hubspotTagSync.js';

const tokensOf = (tokens: HubSpotTokens): OAuthTokens => ({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt.toISOString() });

/** The HubSpot contact holding this E.164 mobile in a property of the option (its numbers normalised as Parley's are). */
async function findByMobile(connection: HubSpotConnection, session: ConnectorSession, mobile: string): Promise<string | null> {
  const order = hubspotPropertiesOf(session).mobileProperty;
  const found = await searchHubSpotContactsByPhone(connection, mobile, hubspotPhoneProperties(order));
  const match = found.find((contact) => {
    const held = chooseHubSpotMobile(contact.properties, order);
    const normal = held === null ? null : normaliseContactMobile(held, null, null);
    return normal?.valid === true && normal.number === mobile;
  });
  return match?.id ?? null;
}

function timelineText(activity: MessageActivity): string {
  const name = `${activity.contact.firstName} ${activity.contact.lastName}`.trim() || activity.contact.mobile;
  const heading = activity.direction === 'outbound' ? `SMS sent to ${name} (${activity.contact.mobile})` : `SMS received from ${name} (${activity.contact.mobile})`;
  return `${heading}:\n${activity.text}`;
}

/** HubSpot's 409 for a second contact with an e-mail names the one it has: "Existing ID: 123". */
function existingIdOf(error: unknown): string | null {
  if (!(error instanceof HubSpotRequestError) || error.status !== 409) return null;
  return /Existing ID: (\d+)/.exec(error.reason)?.[1] ?? null;
}

export const hubspotConnector: Connector = {
  kind: 'hubspot',
  auth: {
    type: 'oauth',
    configured: (config) => config.integrations.hubspot.app !== null,
    // HubSpot's authorize page documents no code_challenge (hubspotOAuth.ts): the framework's single-use state guards the callback.
    authorizeUrl: (config, input) => hubspotAuthorizeUrl(hubspotApp(config, input.redirectUri), input.state),
    async exchangeCode(session, input) {
      const grant = await viaHubSpot(() => exchangeHubSpotCode(session.fetch, hubspotApp(session.config, input.redirectUri), input.code));
      return { ...tokensOf(grant), connection: { hubId: grant.hubId, ...(grant.hubDomain === null ? {} : { hubDomain: grant.hubDomain }) } };
    },
    async refresh(session) {
      const refreshToken = session.credentials.refreshToken ?? '';
      return tokensOf(await viaHubSpot(() => refreshHubSpotToken(session.fetch, hubspotApp(session.config), refreshToken)));
    },
  },
  properties: hubspotPropertiesSchema,
  defaultProperties: HUBSPOT_DEFAULT_PROPERTIES,
  operatorHosts: hubspotOperatorHosts,
  sync: {
    async contacts(session, cursor) {
      const order = hubspotPropertiesOf(session).mobileProperty;
      const page = await viaHubSpot(() => pageHubSpotContacts(hubspotConnection(session), cursor));
      const items = page.items.map(({ id, properties: p }) => ({
        externalId: id,
        phone: chooseHubSpotMobile(p, order) ?? '',
        firstName: p.firstname ?? '',
        lastName: p.lastname ?? '',
        email: p.email ?? '',
      }));
      return { items, next: page.after };
    },
    tags: (session, cursor) => viaHubSpot(() => pageHubSpotTags(hubspotConnection(session), cursor)),
  },
  recordMessage(session, activity) {
    return viaHubSpot(async () => {
      const connection = hubspotConnection(session);
      const contactId = activity.externalId ?? (await findByMobile(connection, session, activity.contact.mobile));
      if (contactId === null) return null;
      await logHubSpotCommunication(connection, { contactId, body: timelineText(activity), at: new Date(activity.at) });
      return contactId;
    });
  },
  pushContact(session, contact) {
    return viaHubSpot(async () => {
      const connection = hubspotConnection(session);
      const existing = await findByMobile(connection, session, contact.mobile);
      if (existing !== null) return existing;
      const [mobileProperty = 'mobilephone'] = hubspotPhoneProperties(hubspotPropertiesOf(session).mobileProperty);
      try {
        return (await createHubSpotContact(connection, { ...contact, mobileProperty })).id;
      } catch (error) {
        const id = existingIdOf(error);
        if (id === null) throw error;
        return id;
      }
    });
  },
  verifyInbound(config, request) {
    const app = config.integrations.hubspot.app;
    if (app === null) return false;
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    return verifyHubSpotSignatureV3({
      clientSecret: app.clientSecret,
      method: request.method,
      // HubSpot signs the URL it called: the public address, not the one behind a proxy.
      url: `${config.publicUrl}${request.url}`,
      body: request.rawBody.toString('utf8'),
      signature: header('x-hubspot-signature-v3'),
      timestamp: header('x-hubspot-request-timestamp'),
      nowMs: Date.now(),
    });
  },
  async revoke(session) {
    const refreshToken = session.credentials.refreshToken;
    // Revoking takes the app's credentials: without an app configured there is nothing to revoke with.
    if (refreshToken === undefined || session.config.integrations.hubspot.app === null) return;
    await viaHubSpot(() => revokeHubSpotToken(session.fetch, hubspotApp(session.config), refreshToken));
  },
};

