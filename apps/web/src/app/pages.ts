import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageProps } from './pageProps';

export type PageKey = 'home' | 'contacts' | 'notAvailable' | 'notFound' | 'login' | 'logout' | 'callback' | 'accounts' | 'authorize' | 'signup' | 'verified' | 'resendVerification' | 'list' | 'gdpr' | 'simulator' | 'approvals' | 'media' | 'conversations' | 'conversation' | 'autoResponders' | 'templates' | 'campaigns' | 'notifications' | 'notificationChannel' | 'links' | 'customDomains' | 'carrierLookup' | 'nameLookup' | 'screenshot' | 'integrations' | 'integration' | 'webhooks' | 'zapier' | 'twilio' | 'slack' | 'featureRequests';

/** One chunk per page, so the first route only loads what it shows. */
export const pages: Record<PageKey, LazyExoticComponent<ComponentType<PageProps>>> = {
  home: lazy(() => import('./pages/HomePage').then((m) => ({ default: m.HomePage }))),
  contacts: lazy(() => import('../features/contacts/ContactsPage').then((m) => ({ default: m.ContactsPage }))),
  notAvailable: lazy(() => import('./pages/NotAvailablePage').then((m) => ({ default: m.NotAvailablePage }))),
  notFound: lazy(() => import('./pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
  login: lazy(() => import('../features/identity/LoginPage').then((m) => ({ default: m.LoginPage }))),
  logout: lazy(() => import('../features/identity/LogoutPage').then((m) => ({ default: m.LogoutPage }))),
  callback: lazy(() => import('../features/identity/CallbackPage').then((m) => ({ default: m.CallbackPage }))),
  accounts: lazy(() => import('../features/accounts/AccountsPage').then((m) => ({ default: m.AccountsPage }))),
  authorize: lazy(() => import('../features/identity/AuthorizePage').then((m) => ({ default: m.AuthorizePage }))),
  signup: lazy(() => import('../features/identity/SignUpPage').then((m) => ({ default: m.SignUpPage }))),
  verified: lazy(() => import('../features/identity/VerifiedPage').then((m) => ({ default: m.VerifiedPage }))),
  list: lazy(() => import('../features/lists/ListPage').then((m) => ({ default: m.ListPage }))),
  gdpr: lazy(() => import('../features/privacy/GdprPage').then((m) => ({ default: m.GdprPage }))),
  approvals: lazy(() => import('../features/messaging/approvals/ApprovalsPage').then((m) => ({ default: m.ApprovalsPage }))),
  simulator: lazy(() => import('../features/simulator/SimulatorPage').then((m) => ({ default: m.SimulatorPage }))),
  autoResponders: lazy(() => import('../features/autoResponders/AutoRespondersPage').then((m) => ({ default: m.AutoRespondersPage }))),
  templates: lazy(() => import('../features/templates/TemplatesPage').then((m) => ({ default: m.TemplatesPage }))),
  campaigns: lazy(() => import('../features/campaigns/CampaignsPage').then((m) => ({ default: m.CampaignsPage }))),
  notifications: lazy(() => import('../features/notifications/NotificationsPage').then((m) => ({ default: m.NotificationsPage }))),
  notificationChannel: lazy(() => import('../features/notifications/channels/ChannelPage').then((m) => ({ default: m.ChannelPage }))),
  links: lazy(() => import('../features/links/LinksPage').then((m) => ({ default: m.LinksPage }))),
  customDomains: lazy(() => import('../features/links/CustomDomainsPage').then((m) => ({ default: m.CustomDomainsPage }))),
  carrierLookup: lazy(() => import('../features/tools/CarrierLookupPage').then((m) => ({ default: m.CarrierLookupPage }))),
  nameLookup: lazy(() => import('../features/tools/NameLookupPage').then((m) => ({ default: m.NameLookupPage }))),
  screenshot: lazy(() => import('../features/tools/screenshot/ScreenshotPage').then((m) => ({ default: m.ScreenshotPage }))),
  integrations: lazy(() => import('../features/integrations/IntegrationsPage').then((m) => ({ default: m.IntegrationsPage }))),
  integration: lazy(() => import('../features/integrations/IntegrationPage').then((m) => ({ default: m.IntegrationPage }))),
  webhooks: lazy(() => import('../features/notifications/WebhooksPage').then((m) => ({ default: m.WebhooksPage }))),
  zapier: lazy(() => import('../features/integrations/ZapierPage').then((m) => ({ default: m.ZapierPage }))),
  twilio: lazy(() => import('../features/integrations/TwilioPage').then((m) => ({ default: m.TwilioPage }))),
  slack: lazy(() => import('../features/integrations/SlackPage').then((m) => ({ default: m.SlackPage }))),
  featureRequests: lazy(() => import('../features/featureRequests/FeatureRequestsPage').then((m) => ({ default: m.FeatureRequestsPage }))),
  media: lazy(() => import('../features/media/MediaPage').then((m) => ({ default: m.MediaPage }))),
  conversations: lazy(() => import('../features/conversations/ConversationsPage').then((m) => ({ default: m.ConversationsPage }))),
  conversation: lazy(() => import('../features/conversations/ConversationPage').then((m) => ({ default: m.ConversationPage }))),
  resendVerification: lazy(() =>
    import('../features/identity/ResendVerificationPage').then((m) => ({ default: m.ResendVerificationPage })),
  ),
};
