/** The integrations that have a page, in menu order. */
export const integrations = [
  { slug: 'activecampaign', name: 'ActiveCampaign' },
  { slug: 'aircall', name: 'AirCall' },
  { slug: 'callrail', name: 'CallRail' },
  { slug: 'cradle', name: 'Cradle' },
  { slug: 'email', name: 'Email' },
  { slug: 'googlecalendar', name: 'Google Calendar' },
  { slug: 'hubspot', name: 'HubSpot' },
  { slug: 'intercom', name: 'Intercom' },
  { slug: 'pipedrive', name: 'Pipedrive' },
  { slug: 'slack', name: 'Slack' },
  { slug: 'twilio', name: 'Twilio' },
  { slug: 'webhooks', name: 'Webhooks' },
  { slug: 'zapier', name: 'Zapier' },
] as const;

export type IntegrationSlug = (typeof integrations)[number]['slug'];
