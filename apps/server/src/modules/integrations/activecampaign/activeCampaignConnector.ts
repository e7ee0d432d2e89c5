import { ACTIVECAMPAIGN_DEFAULT_PROPERTIES, activeCampaignConnectSchema, activeCampaignPropertiesSchema } from '@parley/shared';
import { normaliseContactMobile } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import type { Connector, ConnectorSession, MessageActivity } from '../connector.js';
import { AC_PAGE_SIZE, acAddNote, acContacts, acContactTags, acMe, acSearchContacts, acTagNames, type AcTarget } from './activeCampaignApi.js';

/** Where calls go: the account's API URL's origin, unless the operator set ACTIVECAMPAIGN_API_BASE_URL. */
export function acOrigin(config: Config, apiUrl: string): string {
  return config.integrations.activeCampaignApiBaseUrl ?? new URL(apiUrl).origin;
}

function targetOf(session: ConnectorSession): AcTarget {
  const { apiUrl = '', apiKey = '' } = session.credentials;
  return { origin: acOrigin(session.config, apiUrl), apiKey, fetch: session.fetch };
}

const offsetOf = (cursor: string | null): number => (cursor === null ? 0 : Math.max(0, Number.parseInt(cursor, 10) || 0));
const nextCursor = (offset: number, got: number, total: number | undefined): string | null =>
  got < AC_PAGE_SIZE || (total !== undefined && offset + got >= total) ? null : String(offset + got);

function noteText(activity: MessageActivity): string {
  const name = `${activity.contact.firstName} ${activity.contact.lastName}`.trim() || activity.contact.mobile;
  const heading = activity.direction === 'outbound' ? `SMS sent to ${name}` : `SMS received from ${name}`;
  return `${heading} (${activity.at}):\n${activity.text}`;
}

/** The contact ActiveCampaign has under this mobile: its phone normalised as Parley's is. */
async function findByMobile(target: AcTarget, activity: MessageActivity): Promise<string | null> {
  const found = await acSearchContacts(target, activity.contact.mobile);
  const match = found.find((c) => {
    const mobile = normaliseContactMobile(c.phone, null, null);
    return mobile.valid && mobile.number === activity.contact.mobile;
  });
  return match?.id ?? null;
}

export const activeCampaignConnector: Connector = {
  kind: 'activecampaign',
  auth: {
    type: 'apiKey',
    fields: activeCampaignConnectSchema,
    async connect(session, fields) {
      const apiUrl = fields.apiUrl ?? '';
      const apiKey = fields.apiKey ?? '';
      await acMe({ origin: acOrigin(session.config, apiUrl), apiKey, fetch: session.fetch });
      return { credentials: { apiUrl, apiKey }, connection: { apiUrl } };
    },
  },
  properties: activeCampaignPropertiesSchema,
  defaultProperties: ACTIVECAMPAIGN_DEFAULT_PROPERTIES,
  operatorHosts: (config) => {
    const base = config.integrations.activeCampaignApiBaseUrl;
    return base === null ? [] : [new URL(base).hostname];
  },
  sync: {
    async contacts(session, cursor) {
      const offset = offsetOf(cursor);
      const { contacts, total } = await acContacts(targetOf(session), offset);
      return {
        items: contacts.map((c) => ({ externalId: c.id, phone: c.phone, firstName: c.firstName, lastName: c.lastName, email: c.email })),
        next: nextCursor(offset, contacts.length, total),
        ...(total === undefined ? {} : { total }),
      };
    },
    async tags(session, cursor) {
      const target = targetOf(session);
      const offset = offsetOf(cursor);
      // Tag names first (a few requests at most), then one page of contact-tag links.
      const names = await acTagNames(target);
      const { links, total } = await acContactTags(target, offset);
      const byContact = new Map<string, string[]>();
      for (const link of links) {
        const name = names.get(link.tag);
        if (name === undefined) continue;
        byContact.set(link.contact, [...(byContact.get(link.contact) ?? []), name]);
      }
      return {
        items: [...byContact].map(([externalId, tags]) => ({ externalId, tags })),
        next: nextCursor(offset, links.length, total),
        ...(total === undefined ? {} : { total }),
      };
    },
  },
  async recordMessage(session, activity) {
    const target = targetOf(session);
    const contactId = activity.externalId ?? (await findByMobile(target, activity));
    if (contactId === null) return null;
    await acAddNote(target, contactId, noteText(activity));
    return contactId;
  },
};
