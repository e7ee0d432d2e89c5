import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { documentTitle, resolveTitle } from './routeTitle';
import { pageRoutes, routes, type PageRoute } from './routes';

interface Resolved {
  title: string;
  access: PageRoute['access'];
  layout: PageRoute['layout'];
  page: PageRoute['page'];
  chain: string[];
}

const resolve = (path: string): Resolved => {
  const matches = matchRoutes(routes, path);
  const leaf = matches?.at(-1);
  const route = leaf?.route.handle as PageRoute | undefined;
  if (leaf === undefined || route === undefined) throw new Error(`no page for ${path}`);
  return {
    title: resolveTitle(route.title, leaf.params),
    access: route.access,
    layout: route.layout,
    page: route.page,
    chain: (matches ?? []).map((match) => match.route.id ?? match.route.path ?? ''),
  };
};

const integrationPages = [
  ['activecampaign', 'ActiveCampaign'],
  ['aircall', 'AirCall'],
  ['callrail', 'CallRail'],
  ['cradle', 'Cradle'],
  ['email', 'Email'],
  ['googlecalendar', 'Google Calendar'],
  ['hubspot', 'HubSpot'],
  ['intercom', 'Intercom'],
  ['pipedrive', 'Pipedrive'],
  ['slack', 'Slack'],
  ['twilio', 'Twilio'],
  ['webhooks', 'Webhooks'],
  ['zapier', 'Zapier'],
] as const;

/** Every route of the product behind sign-in, with the title each page shows. */
const protectedPages: [string, string][] = [
  ['/accounts', 'Accounts'],
  ['/chooseaccount', 'Accounts'],
  ['/authorize?redirectTo=https%3A%2F%2Fexample.com', 'Authorize'],
  ['/contacts', 'Contacts'],
  ['/conversations', 'Conversations'],
  ['/conversations/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'Conversation'],
  ['/campaigns', 'Campaigns'],
  ['/templates', 'Templates'],
  ['/templates/sms', 'SMS Templates'],
  ['/templates/web', 'Web Templates'],
  ['/templates/optin', 'OptIn Templates'],
  ['/autoresponders', 'Auto Responders'],
  ['/links/urlshortener', 'Links'],
  ['/links/customdomains', 'Custom Domains'],
  ['/lists/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'List'],
  ['/tools/carrierlookup', 'Carrier Lookup'],
  ['/tools/namelookup', 'Name Lookup'],
  ['/tools/screenshot', 'Screenshot Generator'],
  ['/integrations', 'Integrations'],
  ...integrationPages.map(([slug, name]): [string, string] => [`/integrations/${slug}`, name]),
  ['/notifications', 'Notifications'],
  ['/notifications/email', 'Email Notifications'],
  ['/notifications/sms', 'SMS Notifications'],
  ['/notifications/slack', 'Slack Notifications'],
  ['/notifications/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'Notification Channel'],
  ['/admin/gdpr', 'GDPR'],
  ['/featurerequests', 'Feature Requests'],
  ['/simulator', 'Simulator'],
  ['/approvals/acceptablehours', 'Acceptable Hours'],
  ['/approvals/somethingelse', 'Unknown'],
];

/** Protected pages that are built; the rest say 'Not available yet'. */
const builtPages: Record<string, PageRoute['page']> = {
  '/accounts': 'accounts',
  '/chooseaccount': 'accounts',
  '/authorize': 'authorize',
  '/contacts': 'contacts',
  '/lists/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b': 'list',
  '/admin/gdpr': 'gdpr',
  '/featurerequests': 'featureRequests',
  // One page for every approval type: it titles an unknown one Unknown and has nothing to approve there.
  '/approvals/acceptablehours': 'approvals',
  '/approvals/somethingelse': 'approvals',
  '/simulator': 'simulator',
  '/autoresponders': 'autoResponders',
  '/links/urlshortener': 'links',
  '/links/customdomains': 'customDomains',
  '/tools/carrierlookup': 'carrierLookup',
  '/tools/namelookup': 'nameLookup',
  '/tools/screenshot': 'screenshot',
  '/campaigns': 'campaigns',
  '/templates': 'templates',
  '/templates/sms': 'templates',
  '/templates/web': 'templates',
  '/templates/optin': 'templates',
  '/conversations': 'conversations',
  '/notifications': 'notifications',
  '/notifications/email': 'notificationChannel',
  '/notifications/sms': 'notificationChannel',
  '/notifications/slack': 'notificationChannel',
  '/notifications/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b': 'notificationChannel',
  '/conversations/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b': 'conversation',
  // The list, and one page for every integration: a kind without a connector says 'Not available yet' there.
  '/integrations': 'integrations',
  ...Object.fromEntries(integrationPages.map(([slug]) => [`/integrations/${slug}`, slug === 'webhooks' || slug === 'zapier' || slug === 'twilio' || slug === 'slack' ? slug : ('integration' as const)])),
};

const openPages: [string, string, PageRoute['page']][] = [
  ['/login', 'Login', 'login'],
  ['/signup?email=a%40b.c&first_name=A', 'Sign Up', 'signup'],
  ['/verified', 'Verified', 'verified'],
  ['/resendverification', 'Resend Verification', 'resendVerification'],
  ['/logout', 'Logout', 'logout'],
];

describe('route table', () => {
  it('makes / the home page inside the app frame', () => {
    expect(resolve('/')).toEqual({
      title: 'Home',
      access: 'protected',
      layout: 'app',
      page: 'home',
      chain: ['root', 'protected', 'session', 'protected-app', '/'],
    });
  });

  it.each(protectedPages)('%s is behind sign-in and titled %s', (path, title) => {
    const page = resolve(path.split('?')[0] ?? path);
    expect(page.title).toBe(title);
    expect(page.access).toBe('protected');
    expect(page.page).toBe(builtPages[path.split('?')[0] ?? path] ?? 'notAvailable');
    expect(page.chain.slice(0, 3)).toEqual(['root', 'protected', 'session']);
  });

  it('frames every protected page but /authorize and /media', () => {
    expect(resolve('/contacts').layout).toBe('app');
    expect(resolve('/authorize').layout).toBe('plain');
  });

  it('shows /media/:messageId/:idx without the page wrapper', () => {
    expect(resolve('/media/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/0')).toMatchObject({
      title: 'Media',
      access: 'protected',
      layout: 'bare',
      page: 'media',
    });
  });

  it.each(openPages)('%s is open and titled %s', (path, title, key) => {
    const page = resolve(path.split('?')[0] ?? path);
    expect(page).toMatchObject({ title, access: 'open', layout: 'plain', page: key });
    expect(page.chain.slice(0, 2)).toEqual(['root', 'open-plain']);
  });

  it('finishes sign-in at /callback, open and without the page wrapper', () => {
    expect(resolve('/callback')).toMatchObject({ access: 'open', layout: 'bare', page: 'callback' });
  });

  it.each([
    '/nowhere',
    '/integrations/salesforce',
    '/tools/other',
    '/templates/email',
    '/lists',
    '/media/1',
    '/admin',
    '/links',
  ])('answers %s with the not-found page', (path) => {
    expect(resolve(path)).toMatchObject({ access: 'open', page: 'notFound' });
  });

  it('declares each path once', () => {
    const paths = pageRoutes.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('declares exactly the routes of the product', () => {
    const specPaths = [
      '/',
      '/accounts',
      '/chooseaccount',
      '/authorize',
      '/contacts',
      '/conversations',
      // One conversation of the inbox.
      '/conversations/:conversationId',
      '/campaigns',
      '/templates',
      '/templates/sms',
      '/templates/web',
      '/templates/optin',
      '/autoresponders',
      '/links/urlshortener',
      '/links/customdomains',
      '/lists/:listId',
      '/tools/carrierlookup',
      '/tools/namelookup',
      '/tools/screenshot',
      '/integrations',
      ...integrationPages.map(([slug]) => `/integrations/${slug}`),
      '/notifications',
      '/notifications/email',
      '/notifications/sms',
      '/notifications/slack',
      '/notifications/:channelId',
      '/admin/gdpr',
      '/featurerequests',
      // The simulator carrier's virtual phones (embedded default).
      '/simulator',
      '/media/:messageId/:idx',
      '/approvals/:approvalType',
      '/login',
      '/signup',
      '/verified',
      '/resendverification',
      '/logout',
      // Where the identity provider sends the browser back with the sign-in code.
      '/callback',
      '*',
    ];
    expect(pageRoutes.map((route) => route.path).sort()).toEqual(specPaths.sort());
  });

  it('names the document after the page', () => {
    expect(documentTitle('Home')).toBe('Parley');
    expect(documentTitle('Contacts')).toBe('Contacts · Parley');
  });
});
