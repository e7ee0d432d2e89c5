import type { RouteObject } from 'react-router';
import { integrations } from './integrations';
import { AppLayout } from './layout/AppLayout';
import { BareLayout } from './layout/BareLayout';
import { PlainLayout } from './layout/PlainLayout';
import { RequireSignIn } from './layout/RequireSignIn';
import { RootLayout } from './layout/RootLayout';
import { RouteErrorPage } from './layout/RouteErrorPage';
import type { PageRoute, RouteAccess, RouteLayout } from './pageRoute';
import type { PageKey } from './pages';
import { approvalTitle, type RouteTitle } from './routeTitle';
import { RoutePage } from './RoutePage';
import { SessionGate } from './layout/SessionGate';

export type { PageRoute, RouteAccess, RouteLayout } from './pageRoute';

const inApp = (path: string, title: RouteTitle, page: PageKey = 'notAvailable'): PageRoute => ({
  path,
  title,
  access: 'protected',
  layout: 'app',
  page,
});

const openRoute = (path: string, title: string, page: PageKey = 'notAvailable'): PageRoute => ({
  path,
  title,
  access: 'open',
  layout: 'plain',
  page,
});

const integrationPage = (slug: string): PageKey => (slug === 'webhooks' || slug === 'zapier' || slug === 'twilio' || slug === 'slack' ? slug : 'integration');

/** Every route of the product. */
export const pageRoutes: readonly PageRoute[] = [
  inApp('/', 'Home', 'home'),
  inApp('/accounts', 'Accounts', 'accounts'),
  inApp('/chooseaccount', 'Accounts', 'accounts'),
  { path: '/authorize', title: 'Authorize', access: 'protected', layout: 'plain', page: 'authorize' },
  inApp('/contacts', 'Contacts', 'contacts'),
  inApp('/conversations', 'Conversations', 'conversations'),
  inApp('/conversations/:conversationId', 'Conversation', 'conversation'),
  inApp('/campaigns', 'Campaigns', 'campaigns'),
  inApp('/templates', 'Templates', 'templates'),
  inApp('/templates/sms', 'SMS Templates', 'templates'),
  inApp('/templates/web', 'Web Templates', 'templates'),
  inApp('/templates/optin', 'OptIn Templates', 'templates'),
  inApp('/autoresponders', 'Auto Responders', 'autoResponders'),
  inApp('/links/urlshortener', 'Links', 'links'),
  inApp('/links/customdomains', 'Custom Domains', 'customDomains'),
  inApp('/lists/:listId', 'List', 'list'),
  inApp('/tools/carrierlookup', 'Carrier Lookup', 'carrierLookup'),
  inApp('/tools/namelookup', 'Name Lookup', 'nameLookup'),
  inApp('/tools/screenshot', 'Screenshot Generator', 'screenshot'),
  inApp('/integrations', 'Integrations', 'integrations'),
  // Webhooks are notifications: their page belongs to that feature (docs/integrations.md, "Webhooks"); Zapier
  // is an app on the public API, with a page of its own ("Zapier").
  ...integrations.map(({ slug, name }) => inApp(`/integrations/${slug}`, name, integrationPage(slug))),
  inApp('/notifications', 'Notifications', 'notifications'),
  inApp('/notifications/email', 'Email Notifications', 'notificationChannel'),
  inApp('/notifications/sms', 'SMS Notifications', 'notificationChannel'),
  inApp('/notifications/slack', 'Slack Notifications', 'notificationChannel'),
  inApp('/notifications/:channelId', 'Notification Channel', 'notificationChannel'),
  inApp('/admin/gdpr', 'GDPR', 'gdpr'),
  inApp('/featurerequests', 'Feature Requests', 'featureRequests'),
  // The simulated carrier's virtual phones; the page says so where the deployment has no simulator.
  inApp('/simulator', 'Simulator', 'simulator'),
  { path: '/media/:messageId/:idx', title: 'Media', access: 'protected', layout: 'bare', page: 'media' },
  inApp('/approvals/:approvalType', approvalTitle, 'approvals'),
  openRoute('/login', 'Login', 'login'),
  openRoute('/signup', 'Sign Up', 'signup'),
  openRoute('/verified', 'Verified', 'verified'),
  openRoute('/resendverification', 'Resend Verification', 'resendVerification'),
  openRoute('/logout', 'Logout', 'logout'),
  { path: '/callback', title: 'Signing In', access: 'open', layout: 'bare', page: 'callback' },
  openRoute('*', 'Page Not Found', 'notFound'),
];

const leaves = (access: RouteAccess, layout: RouteLayout): RouteObject[] =>
  pageRoutes
    .filter((route) => route.access === access && route.layout === layout)
    .map((route) => ({
      path: route.path,
      handle: route,
      element: <RoutePage route={route} />,
      errorElement: <RouteErrorPage />,
    }));

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        id: 'protected',
        element: <RequireSignIn />,
        children: [
          {
            id: 'session',
            element: <SessionGate />,
            children: [
              { id: 'protected-app', element: <AppLayout />, children: leaves('protected', 'app') },
              { id: 'protected-plain', element: <PlainLayout />, children: leaves('protected', 'plain') },
              { id: 'protected-bare', element: <BareLayout />, children: leaves('protected', 'bare') },
            ],
          },
        ],
      },
      { id: 'open-plain', element: <PlainLayout />, children: leaves('open', 'plain') },
      { id: 'open-bare', element: <BareLayout />, children: leaves('open', 'bare') },
    ],
  },
];
