/*
 * The administrators of the integration specs, one with an account of its own per spec: the specs share the
 * global server (globalSetup.ts), which creates them before it starts, and none sees another's connections.
 */

export interface IntegrationPerson {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  accountName: string;
  /** The account's plan when not the Trial (a plan may add phone numbers). */
  plan?: string;
}

export const integrationPeople = {
  activeCampaign: { email: 'ada.campaigns@example.test', password: 'Active-Campaign-Secret-2026', firstName: 'Ada', lastName: 'Campaigns', accountName: 'Harbour Florist' },
  aircall: { email: 'aria.aircall@example.test', password: 'AirCall-Secret-2026', firstName: 'Aria', lastName: 'Aircall', accountName: 'Harbour Dental' },
  callRail: { email: 'cal.rail@example.test', password: 'CallRail-Secret-2026', firstName: 'Cal', lastName: 'Rail', accountName: 'Harbour Plumbing' },
  cradle: { email: 'cole.cradle@example.test', password: 'Cradle-Secret-2026', firstName: 'Cole', lastName: 'Cradle', accountName: 'Harbour Law' },
  email: { email: 'eli.mail@example.test', password: 'Email-Integration-Secret-2026', firstName: 'Eli', lastName: 'Mail', accountName: 'Quay Couriers' },
  googleCalendar: { email: 'gale.calendar@example.test', password: 'Calendar-Secret-2026', firstName: 'Gale', lastName: 'Calendar', accountName: 'Riverside Dental' },
  hubspot: { email: 'hana.hubspot@example.test', password: 'Hub-Spot-Secret-2026', firstName: 'Hana', lastName: 'Hub', accountName: 'Harbour Bakery' },
  intercom: { email: 'ivy.intercom@example.test', password: 'Intercom-Secret-2026', firstName: 'Ivy', lastName: 'Intercom', accountName: 'Harbour Parcels' },
  pipedrive: { email: 'pia.pipeline@example.test', password: 'Pipedrive-Secret-2026', firstName: 'Pia', lastName: 'Pipeline', accountName: 'Quayside Bakery' },
  // Not the account settings spec's Tidewater Books: names on the shared server are kept apart.
  twilio: { email: 'tariq.twilio@example.test', password: 'Twilio-Secret-2026', firstName: 'Tariq', lastName: 'Tide', accountName: 'Tidewater Tackle', plan: 'starter' },
} as const satisfies Record<string, IntegrationPerson>;

/** The CLI command lines that create each person, verified, and the account it administers. */
export function integrationPeopleCommands(): string[][] {
  return Object.values(integrationPeople).flatMap((person: IntegrationPerson) => [
    ['create-user', '--email', person.email, '--password', person.password, '--first-name', person.firstName, '--last-name', person.lastName, '--verified'],
    ['create-account', '--owner', person.email, '--name', person.accountName, ...(person.plan === undefined ? [] : ['--plan', person.plan])],
  ]);
}
