import { normaliseContactMobile, PIPEDRIVE_DEFAULT_PROPERTIES, pipedrivePropertiesSchema, pipedriveTimelineTypes, type PipedriveTimelineType } from '@parley/shared';
import type { Config } from '../../../platform/config.js';
import type { Connector, ConnectorSession, MessageActivity } from '../connector.js';
import { ProviderError } from '../providerError.js';
import { pipedriveAddActivity, pipedriveAddNote, pipedriveAddPerson, pipedriveMe, pipedrivePersons, pipedriveSearchByPhone, type PipedrivePerson } from './pipedriveApi.js';
import type { PipedriveTarget } from './pipedriveClient.js';
import { pipedriveAuthorizeUrl, pipedriveRevoke, pipedriveTokenCall, trustedApiOrigin } from './pipedriveOAuth.js';

/** Where a session's calls go: the company's API origin kept at connect (checked again, in case the base changed). */
export function targetOf(session: Pick<ConnectorSession, 'credentials' | 'fetch' | 'config'>): PipedriveTarget {
  const origin = trustedApiOrigin(session.config.integrations.pipedrive, session.credentials.apiOrigin ?? '');
  if (origin === null) throw new ProviderError('unauthorized', "The connection's Pipedrive API domain is not under this server's Pipedrive API base; connect again");
  return { apiOrigin: origin, accessToken: session.credentials.accessToken ?? '', fetch: session.fetch };
}

/** The person's mobile: the phone labelled mobile, else the primary one. */
export function mobileOf(person: PipedrivePerson): string {
  const phones = person.phones ?? [];
  return (phones.find((p) => p.label.toLowerCase() === 'mobile' && p.value !== '') ?? phones.find((p) => p.primary === true))?.value ?? '';
}

const timelineOf = (session: ConnectorSession): PipedriveTimelineType => {
  const value = session.properties.timelineType;
  return pipedriveTimelineTypes.find((t) => t === value) ?? PIPEDRIVE_DEFAULT_PROPERTIES.timelineType;
};

/** The person Pipedrive has under this E.164 mobile: its phones normalised as Parley's are. */
export async function findPersonByMobile(target: PipedriveTarget, mobile: string): Promise<number | null> {
  const found = await pipedriveSearchByPhone(target, mobile.replace(/^\+/, ''));
  const match = found.find((p) => p.phones.some((phone) => {
    const normal = normaliseContactMobile(phone, null, null);
    return normal.valid && normal.number === mobile;
  }));
  return match?.id ?? null;
}

const escapeHtml = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>');

function subjectOf(activity: MessageActivity): string {
  const name = `${activity.contact.firstName} ${activity.contact.lastName}`.trim() || activity.contact.mobile;
  return activity.direction === 'outbound' ? `SMS sent to ${name}` : `SMS received from ${name}`;
}

async function record(target: PipedriveTarget, type: Exclude<PipedriveTimelineType, 'disabled'>, personId: number, activity: MessageActivity): Promise<void> {
  switch (type) {
    case 'activity':
      await pipedriveAddActivity(target, { personId, subject: subjectOf(activity), note: escapeHtml(activity.text), dueDate: activity.at.slice(0, 10) });
      return;
    case 'note':
      await pipedriveAddNote(target, { personId, content: `<b>${escapeHtml(subjectOf(activity))}</b> (${escapeHtml(activity.at)})<br>${escapeHtml(activity.text)}` });
      return;
  }
}

const apiHost = (config: Config): string[] => {
  const { apiBaseUrl, oauthBaseUrl } = config.integrations.pipedrive;
  return [new URL(apiBaseUrl).hostname, new URL(oauthBaseUrl).hostname];
};

export const pipedriveConnector: Connector = {
  kind: 'pipedrive',
  auth: {
    type: 'oauth',
    configured: (config) => config.integrations.pipedrive.app !== null,
    authorizeUrl: pipedriveAuthorizeUrl,
    async exchangeCode(session, input) {
      const tokens = await pipedriveTokenCall(session.fetch, session.config.integrations.pipedrive, {
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      });
      const me = await pipedriveMe(targetOf({ ...session, credentials: { ...tokens.extra, accessToken: tokens.accessToken } }));
      return { ...tokens, connection: { company: me.companyName, companyId: me.companyId, companyDomain: me.companyDomain } };
    },
    refresh: (session) =>
      pipedriveTokenCall(session.fetch, session.config.integrations.pipedrive, { grant_type: 'refresh_token', refresh_token: session.credentials.refreshToken ?? '' }),
  },
  properties: pipedrivePropertiesSchema,
  defaultProperties: PIPEDRIVE_DEFAULT_PROPERTIES,
  operatorHosts: apiHost,
  sync: {
    async contacts(session, cursor) {
      const { persons, next } = await pipedrivePersons(targetOf(session), cursor);
      return {
        items: persons.map((p) => ({
          externalId: String(p.id),
          phone: mobileOf(p),
          firstName: p.first_name,
          lastName: p.last_name,
          email: (p.emails ?? []).find((e) => e.primary === true)?.value ?? p.emails?.[0]?.value ?? '',
        })),
        next,
      };
    },
  },
  async recordMessage(session, activity) {
    const type = timelineOf(session);
    if (type === 'disabled') return activity.externalId;
    const target = targetOf(session);
    const personId = activity.externalId === null ? await findPersonByMobile(target, activity.contact.mobile) : Number(activity.externalId);
    if (personId === null || !Number.isSafeInteger(personId)) return null;
    await record(target, type, personId, activity);
    return String(personId);
  },
  async pushContact(session, contact) {
    const target = targetOf(session);
    const found = await findPersonByMobile(target, contact.mobile);
    if (found !== null) return String(found);
    const name = `${contact.firstName} ${contact.lastName}`.trim() || contact.mobile;
    return String(await pipedriveAddPerson(target, { name, mobile: contact.mobile, email: contact.email }));
  },
  revoke: (session) => pipedriveRevoke(session.fetch, session.config.integrations.pipedrive, session.credentials.refreshToken ?? ''),
};
