import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageProps } from '../pages/pageProps';

export type PageKey = 'home' | 'contacts' | 'notAvailable' | 'notFound' | 'login' | 'logout' | 'callback' | 'accounts' | 'authorize' | 'signup' | 'verified' | 'resendVerification' | 'list' | 'gdpr' | 'simulator' | 'approvals' | 'media' | 'conversations' | 'conversation' | 'autoResponders' | 'templates' | 'campaigns';

/** One chunk per page, so the first route only loads what it shows. */
export const pages: Record<PageKey, LazyExoticComponent<ComponentType<PageProps>>> = {
  home: lazy(() => import('../pages/home/HomePage').then((m) => ({ default: m.HomePage }))),
  contacts: lazy(() => import('../pages/contacts/ContactsPage').then((m) => ({ default: m.ContactsPage }))),
  notAvailable: lazy(() => import('../pages/notAvailable/NotAvailablePage').then((m) => ({ default: m.NotAvailablePage }))),
  notFound: lazy(() => import('../pages/notFound/NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
  login: lazy(() => import('../pages/auth/LoginPage').then((m) => ({ default: m.LoginPage }))),
  logout: lazy(() => import('../pages/auth/LogoutPage').then((m) => ({ default: m.LogoutPage }))),
  callback: lazy(() => import('../pages/auth/CallbackPage').then((m) => ({ default: m.CallbackPage }))),
  accounts: lazy(() => import('../pages/accounts/AccountsPage').then((m) => ({ default: m.AccountsPage }))),
  authorize: lazy(() => import('../pages/authorize/AuthorizePage').then((m) => ({ default: m.AuthorizePage }))),
  signup: lazy(() => import('../pages/signup/SignUpPage').then((m) => ({ default: m.SignUpPage }))),
  verified: lazy(() => import('../pages/verification/VerifiedPage').then((m) => ({ default: m.VerifiedPage }))),
  list: lazy(() => import('../pages/lists/ListPage').then((m) => ({ default: m.ListPage }))),
  gdpr: lazy(() => import('../pages/admin/gdpr/GdprPage').then((m) => ({ default: m.GdprPage }))),
  approvals: lazy(() => import('../pages/approvals/ApprovalsPage').then((m) => ({ default: m.ApprovalsPage }))),
  simulator: lazy(() => import('../pages/simulator/SimulatorPage').then((m) => ({ default: m.SimulatorPage }))),
  autoResponders: lazy(() => import('../pages/autoResponders/AutoRespondersPage').then((m) => ({ default: m.AutoRespondersPage }))),
  templates: lazy(() => import('../pages/templates/TemplatesPage').then((m) => ({ default: m.TemplatesPage }))),
  campaigns: lazy(() => import('../pages/campaigns/CampaignsPage').then((m) => ({ default: m.CampaignsPage }))),
  media: lazy(() => import('../pages/media/MediaPage').then((m) => ({ default: m.MediaPage }))),
  conversations: lazy(() => import('../pages/conversations/ConversationsPage').then((m) => ({ default: m.ConversationsPage }))),
  conversation: lazy(() => import('../pages/conversations/ConversationPage').then((m) => ({ default: m.ConversationPage }))),
  resendVerification: lazy(() =>
    import('../pages/verification/ResendVerificationPage').then((m) => ({ default: m.ResendVerificationPage })),
  ),
};
