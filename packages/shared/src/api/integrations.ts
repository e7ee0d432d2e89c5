import { z } from 'zod';
import { validationMessages } from '../validation.js';
import { contactTagSchema } from './contacts.js';
import { emailConnectSchema, emailPropertiesSchema } from './integrationsEmail.js';
import { callRailConnectSchema, callRailPropertiesSchema } from './integrationsCallrail.js';
import { aircallPropertiesSchema, cradleConnectSchema, cradlePropertiesSchema } from './integrationsAircall.js';
import { googleCalendarPropertiesSchema } from './integrationsGoogleCalendar.js';

/**
 * Integrations (docs/integrations.md): the services an account connects, each with a page at
 * /integrations/{kind}. The schemas here are shared by the server's routes and the pages' forms.
 */

/** The thirteen integration pages of the product, in menu order. */
export const integrationKinds = [
  'activecampaign',
  'aircall',
  'callrail',
  'cradle',
  'email',
  'googlecalendar',
  'hubspot',
  'intercom',
  'pipedrive',
  'slack',
  'twilio',
  'webhooks',
  'zapier',
] as const;
export type IntegrationKind = (typeof integrationKinds)[number];

export const INTEGRATION_NAMES: Readonly<Record<IntegrationKind, string>> = {
  activecampaign: 'ActiveCampaign',
  aircall: 'AirCall',
  callrail: 'CallRail',
  cradle: 'Cradle',
  email: 'Email',
  googlecalendar: 'Google Calendar',
  hubspot: 'HubSpot',
  intercom: 'Intercom',
  pipedrive: 'Pipedrive',
  slack: 'Slack',
  twilio: 'Twilio',
  webhooks: 'Webhooks',
  zapier: 'Zapier',
};

export const isIntegrationKind = (value: string): value is IntegrationKind => (integrationKinds as readonly string[]).includes(value);

/** The spec's texts. */
export const ACTIVECAMPAIGN_URL_MESSAGE = 'Invalid ActiveCampaign API URL';
export const INTEGRATION_NOT_AVAILABLE_MESSAGE = 'Not available yet';
export const INTEGRATION_NOT_CONNECTED_MESSAGE = 'The integration is not connected';
export const INTEGRATION_SYNC_RUNNING_MESSAGE = 'A synchronization is already running';
/** An integration's properties saved; the notification channels say the same (notificationChannels.ts). */
export const PROPERTIES_SAVED_MESSAGE = 'Properties have been saved';
export const INTEGRATION_NO_CHANGES_MESSAGE = 'Change a property before saving';
export const INTEGRATION_CREDENTIALS_REFUSED_MESSAGE = 'The API URL or key was refused';

/** An ActiveCampaign account's API URL: https, on a host under api-us1.com (the spec's rule). */
export function isActiveCampaignApiUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.hostname.endsWith('.api-us1.com') && url.username === '' && url.password === '';
}

export const activeCampaignConnectSchema = z
  .object({
    apiUrl: z
      .string()
      .trim()
      .min(1, { message: validationMessages.required })
      .refine(isActiveCampaignApiUrl, { message: ACTIVECAMPAIGN_URL_MESSAGE }),
    apiKey: z.string().trim().min(1, { message: validationMessages.required }).max(200),
  })
  .strict()
  .meta({ id: 'ActiveCampaignConnect' });
export type ActiveCampaignConnect = z.output<typeof activeCampaignConnectSchema>;

/** ActiveCampaign's properties: what the page's form edits. */
export const activeCampaignPropertiesSchema = z
  .object({
    /** A Parley tag put on every contact the sync brings in ('' for none). */
    importTag: z.union([z.literal(''), contactTagSchema]),
    /** Record each message sent and received as a note on the ActiveCampaign contact. */
    recordMessages: z.boolean(),
  })
  .strict()
  .meta({ id: 'ActiveCampaignProperties' });
export type ActiveCampaignProperties = z.output<typeof activeCampaignPropertiesSchema>;

export const ACTIVECAMPAIGN_DEFAULT_PROPERTIES: ActiveCampaignProperties = { importTag: '', recordMessages: true };

/** HubSpot's mobile property options (the spec: phone, mobilephone, or both in either order), first choice first. */
export const hubspotMobileOrders = ['phone', 'mobilephone', 'phone,mobilephone', 'mobilephone,phone'] as const;
export type HubSpotMobileOrder = (typeof hubspotMobileOrders)[number];

/** HubSpot's properties: what the page's form edits. */
export const hubspotPropertiesSchema = z
  .object({
    /** Which contact property holds the mobile, and which one to fall back on. */
    mobileProperty: z.enum(hubspotMobileOrders, { message: 'Choose phone, mobilephone, or both' }),
    /** A Parley tag put on every contact the sync brings in ('' for none). */
    importTag: z.union([z.literal(''), contactTagSchema]),
    /** Log each message sent and received as an SMS communication on the HubSpot contact. */
    recordMessages: z.boolean(),
    /** Create each contact created in Parley in HubSpot too. */
    pushContacts: z.boolean(),
  })
  .strict()
  .meta({ id: 'HubSpotProperties' });
export type HubSpotProperties = z.output<typeof hubspotPropertiesSchema>;

export const HUBSPOT_DEFAULT_PROPERTIES: HubSpotProperties = { mobileProperty: 'mobilephone,phone', importTag: '', recordMessages: true, pushContacts: false };

/** Where a message is written on the Pipedrive person (the spec's timeline types). */
export const pipedriveTimelineTypes = ['disabled', 'activity', 'note'] as const;
export type PipedriveTimelineType = (typeof pipedriveTimelineTypes)[number];

/** Pipedrive's properties: what the page's form edits. */
export const pipedrivePropertiesSchema = z
  .object({
    /** Each message as a done call activity, a note, or not at all. */
    timelineType: z.enum(pipedriveTimelineTypes),
    /** A Parley tag put on every contact the sync brings in ('' for none). */
    importTag: z.union([z.literal(''), contactTagSchema]),
    /** Create a person in Pipedrive for each contact created in Parley. */
    pushContacts: z.boolean(),
  })
  .strict()
  .meta({ id: 'PipedriveProperties' });
export type PipedriveProperties = z.output<typeof pipedrivePropertiesSchema>;

export const PIPEDRIVE_DEFAULT_PROPERTIES: PipedriveProperties = { timelineType: 'activity', importTag: '', pushContacts: false };

/** How long Parley holds an Intercom agent's reply before texting it (minutes; docs/decisions.md, "Intercom reply delay"). */
export const intercomReplyDelays = [0, 5, 10, 15, 30] as const;
export type IntercomReplyDelay = (typeof intercomReplyDelays)[number];

/** Intercom's properties: what the page's form edits. */
export const intercomPropertiesSchema = z
  .object({
    replyDelayMinutes: z.union(
      intercomReplyDelays.map((m) => z.literal(m)),
      { message: 'Choose 0, 5, 10, 15 or 30 minutes' },
    ),
  })
  .strict()
  .meta({ id: 'IntercomProperties' });
export type IntercomProperties = z.output<typeof intercomPropertiesSchema>;

export const INTERCOM_DEFAULT_PROPERTIES: IntercomProperties = { replyDelayMinutes: 5 };

/** The properties schema of each kind that has a connector; the PUT body is a part of it (only what changed). */
export const integrationPropertiesSchemas: Partial<Record<IntegrationKind, z.ZodObject>> = {
  activecampaign: activeCampaignPropertiesSchema,
  hubspot: hubspotPropertiesSchema,
  pipedrive: pipedrivePropertiesSchema,
  intercom: intercomPropertiesSchema,
  email: emailPropertiesSchema,
  callrail: callRailPropertiesSchema,
  aircall: aircallPropertiesSchema,
  cradle: cradlePropertiesSchema,
  googlecalendar: googleCalendarPropertiesSchema,
};

/** The connect body of each API-key kind. */
export const integrationConnectSchemas: Partial<Record<IntegrationKind, z.ZodObject>> = {
  activecampaign: activeCampaignConnectSchema,
  email: emailConnectSchema,
  callrail: callRailConnectSchema,
  cradle: cradleConnectSchema,
};

/** PUT .../properties: the changed fields only; each kind's schema checks them (unknown keys refused). */
export const integrationPropertiesBodySchema = z.record(z.string(), z.unknown()).meta({ id: 'IntegrationPropertiesChange' });
/** POST .../connect: the kind's fields (docs/integrations.md). */
export const integrationConnectBodySchema = z.record(z.string(), z.unknown()).meta({ id: 'IntegrationConnect' });

export const integrationStatuses = ['notConnected', 'connected', 'error'] as const;
export type IntegrationStatus = (typeof integrationStatuses)[number];
export const syncKinds = ['contacts', 'tags'] as const;
export type SyncKind = (typeof syncKinds)[number];
export const syncStatuses = ['queued', 'running', 'waiting', 'completed', 'failed'] as const;
export type SyncStatus = (typeof syncStatuses)[number];
export const activeSyncStatuses: readonly SyncStatus[] = ['queued', 'running', 'waiting'];

export const integrationSyncSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(syncKinds),
    status: z.enum(syncStatuses),
    /** Records handled so far, and the provider's total when it says. */
    progress: z.object({ done: z.number().int(), total: z.number().int().optional() }),
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    /** Why records were skipped, with a count and a few examples each. */
    skippedReasons: z.array(z.object({ reason: z.string(), count: z.number().int(), examples: z.array(z.string()) })),
    /** While waiting: when the provider allows the next call (its Retry-After). */
    resumeAt: z.string().optional(),
    error: z.string().optional(),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    createdAt: z.string(),
  })
  .meta({ id: 'IntegrationSync' });
export type IntegrationSync = z.infer<typeof integrationSyncSchema>;

export const integrationSchema = z
  .object({
    integration: z.enum(integrationKinds),
    name: z.string(),
    /** False while Parley has no connector for it: its page says 'Not available yet'. */
    available: z.boolean(),
    /** How it connects: an API key form, or the provider's authorization page. */
    auth: z.enum(['apiKey', 'oauth']).optional(),
    status: z.enum(integrationStatuses),
    /** Why it is in error (the provider refused the credentials ...). */
    errorReason: z.string().optional(),
    connectedAt: z.string().optional(),
    /** What identifies the connection without its secret (ActiveCampaign's API URL). */
    connection: z.record(z.string(), z.string()).optional(),
    properties: z.record(z.string(), z.unknown()),
    /** The latest sync of each kind. */
    syncs: z.object({ contacts: integrationSyncSchema.optional(), tags: integrationSyncSchema.optional() }),
  })
  .meta({ id: 'Integration' });
export type Integration = z.infer<typeof integrationSchema>;

export const integrationResponseSchema = z.object({ success: z.literal(true), data: integrationSchema }).meta({ id: 'IntegrationResponse' });
export const integrationListSchema = z.object({ data: z.array(integrationSchema) }).meta({ id: 'IntegrationList' });
export const integrationSyncResponseSchema = z.object({ success: z.literal(true), data: integrationSyncSchema }).meta({ id: 'IntegrationSyncResponse' });
export const oauthStartResponseSchema = z.object({ success: z.literal(true), data: z.object({ url: z.string() }) }).meta({ id: 'IntegrationOAuthStart' });

/** The fields of a properties form that differ from what was loaded: what PUT .../properties is sent. */
export function changedProperties(initial: Readonly<Record<string, unknown>>, current: Readonly<Record<string, unknown>>): Record<string, unknown> {
  // Lists (the Email integration's allowed senders) compare by their content.
  const same = (a: unknown, b: unknown): boolean => a === b || (Array.isArray(a) && Array.isArray(b) && JSON.stringify(a) === JSON.stringify(b));
  return Object.fromEntries(Object.entries(current).filter(([key, value]) => !same(initial[key], value)));
}
