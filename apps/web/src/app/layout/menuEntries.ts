import {
  can,
  quickActionLabels,
  showsAdminMenu,
  showsPaidPlanFeatures,
  visibleQuickActions,
  type QuickAction,
  type Role,
} from '@parley/shared';
import { integrations } from '../integrations';

export type MenuIcon =
  | 'accounts'
  | 'contacts'
  | 'campaigns'
  | 'conversations'
  | 'templates'
  | 'integrations'
  | 'notifications'
  | 'lists'
  | 'links'
  | 'customDomains'
  | 'autoResponders'
  | 'admin'
  | 'simulator'
  | 'logout';

export interface MenuLink {
  kind: 'link';
  id: string;
  label: string;
  to: string;
  icon?: MenuIcon;
  /** A count shown beside the label: the unread conversations, the messages quiet hours hold. */
  badge?: 'unread' | 'held';
}

/** Something a menu entry does in place rather than a page it opens (a dialog). */
export type MenuActionId = 'createList';

export interface MenuAction {
  id: MenuActionId;
  label: string;
}

export interface MenuGroup {
  kind: 'group';
  id: string;
  label: string;
  icon: MenuIcon;
  children: MenuLink[];
  /** Shown after the children, when the role may use it. */
  action?: MenuAction;
}

export type MenuEntry = MenuLink | MenuGroup;

export interface MenuList {
  id: string;
  name: string;
}

export interface MenuContext {
  role: Role;
  isTrial: boolean;
  hasLists: boolean;
  /** The account's lists, linked under Lists. */
  lists: readonly MenuList[];
  /** The deployment's carriers include the simulator (client config): its virtual phones are linked. */
  simulator: boolean;
  /** Messages quiet hours hold: while there are any, Admin links to their approval. */
  heldMessages: number;
}

/** Until sign-in and accounts exist, the menu is the one an administrator on a paid plan without lists sees. */
export const defaultMenuContext: MenuContext = {
  role: 'Administrator',
  isTrial: false,
  hasLists: false,
  lists: [],
  simulator: false,
  heldMessages: 0,
};

const link = (id: string, label: string, to: string, icon?: MenuIcon): MenuLink => ({ kind: 'link', id, label, to, icon });

/** The side menu for a role, a plan and the account's lists, in the product's menu order. */
export const menuEntries = (context: Partial<MenuContext> = {}): MenuEntry[] => {
  const { role, isTrial, hasLists, lists, simulator, heldMessages } = { ...defaultMenuContext, ...context };
  const entries: MenuEntry[] = [
    link('accounts', 'Accounts', '/accounts', 'accounts'),
    link('contacts', 'Contacts', '/contacts', 'contacts'),
    link('campaigns', 'Campaigns', '/campaigns', 'campaigns'),
    { ...link('conversations', 'Conversations', '/conversations', 'conversations'), badge: 'unread' },
    {
      kind: 'group',
      id: 'templates',
      label: 'Templates',
      icon: 'templates',
      children: [
        link('templates-sms', 'SMS', '/templates/sms'),
        link('templates-web', 'Web', '/templates/web'),
        link('templates-optin', 'OptIn', '/templates/optin'),
      ],
    },
    {
      kind: 'group',
      id: 'integrations',
      label: 'Integrations',
      icon: 'integrations',
      children: integrations.map(({ slug, name }) => link(`integrations-${slug}`, name, `/integrations/${slug}`)),
    },
    link('notifications', 'Notifications', '/notifications', 'notifications'),
  ];
  if (hasLists) {
    entries.push({
      kind: 'group',
      id: 'lists',
      label: 'Lists',
      icon: 'lists',
      children: lists.map(({ id, name }) => link(`lists-${id}`, name, `/lists/${encodeURIComponent(id)}`)),
      // Lists shows only when the account has one; the first comes from the contacts page.
      ...(can(role, 'lists.write') ? { action: { id: 'createList' as const, label: 'New List' } } : {}),
    });
  }
  if (showsPaidPlanFeatures(isTrial)) {
    entries.push(
      link('links', 'Links', '/links/urlshortener', 'links'),
      link('customDomains', 'Custom Domains', '/links/customdomains', 'customDomains'),
      link('autoResponders', 'Auto Responders', '/autoresponders', 'autoResponders'),
    );
  }
  if (showsAdminMenu(role)) {
    entries.push({
      kind: 'group',
      id: 'admin',
      label: 'Admin',
      icon: 'admin',
      children: [
        link('admin-gdpr', 'GDPR', '/admin/gdpr'),
        ...(heldMessages > 0 ? [{ ...link('admin-approvals', 'Approvals', '/approvals/acceptablehours'), badge: 'held' as const }] : []),
      ],
    });
  }
  if (simulator) entries.push(link('simulator', 'Simulator', '/simulator', 'simulator'));
  entries.push(link('logout', 'Logout', '/logout', 'logout'));
  return entries;
};

export interface MenuQuickAction {
  id: QuickAction;
  label: string;
}

/** The side menu's quick actions for a role; each opens its dialog. */
export const menuQuickActions = (role: Role = defaultMenuContext.role): MenuQuickAction[] =>
  visibleQuickActions(role).map((id) => ({ id, label: quickActionLabels[id] }));
