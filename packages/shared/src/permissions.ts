import { z } from 'zod';

/** Account roles. The server enforces what each may do; the web app only hides what a role cannot use. */
export const roles = ['Administrator', 'CampaignManager', 'Sender', 'ReadOnly'] as const;
export type Role = (typeof roles)[number];

export const roleSchema = z.enum(roles).meta({ id: 'Role' });

export const roleLabels: Record<Role, string> = {
  Administrator: 'Administrator',
  CampaignManager: 'Campaign Manager',
  Sender: 'Sender',
  ReadOnly: 'Read Only',
};

/**
 * Every protected action, grouped as the role table of the design groups them. `.write` means add, edit
 * and remove; `.manage` marks the administrator's areas. Reading records of the account is `account.view`
 * except where the reading itself is sensitive (billing records, API credentials, personal-data exports).
 */
export const capabilityGroups = {
  view: ['account.view'],
  contacts: ['contacts.write', 'contacts.import', 'contacts.block', 'lists.write', 'tags.write'],
  messaging: [
    'messages.send',
    'messages.markRead',
    'media.upload',
    'conversations.start',
    'conversations.answer',
    'conversations.close',
    'conversations.assignGroup',
    'calls.start',
    'tools.lookup',
  ],
  content: ['templates.write', 'autoResponders.write'],
  campaigns: ['campaigns.write', 'campaigns.execute'],
  linksAndNotifications: ['links.write', 'notifications.write'],
  administration: [
    'groups.manage',
    'users.manage',
    'phoneNumbers.manage',
    'domains.manage',
    'integrations.manage',
    'account.manage',
    'account.close',
    'billing.view',
    'billing.manage',
    'apiCredentials.manage',
    'gdpr.manage',
    'reports.download',
  ],
} as const;

export type CapabilityGroup = keyof typeof capabilityGroups;
export type Capability = (typeof capabilityGroups)[CapabilityGroup][number];

export const capabilities: readonly Capability[] = Object.values(capabilityGroups).flat();

const everyone = roles;
const allButReadOnly = ['Administrator', 'CampaignManager', 'Sender'] as const satisfies readonly Role[];
const managers = ['Administrator', 'CampaignManager'] as const satisfies readonly Role[];
const administrators = ['Administrator'] as const satisfies readonly Role[];

/** The one table of who may do what; docs/permissions.md explains each row. */
export const permissionTable: Record<Capability, readonly Role[]> = {
  'account.view': everyone,

  'contacts.write': allButReadOnly,
  'contacts.import': allButReadOnly,
  'contacts.block': allButReadOnly,
  'lists.write': allButReadOnly,
  'tags.write': allButReadOnly,

  'messages.send': allButReadOnly,
  'messages.markRead': allButReadOnly,
  'media.upload': allButReadOnly,
  'conversations.start': allButReadOnly,
  'conversations.answer': allButReadOnly,
  'conversations.close': allButReadOnly,
  'conversations.assignGroup': allButReadOnly,
  'calls.start': allButReadOnly,
  'tools.lookup': allButReadOnly,

  'templates.write': managers,
  'autoResponders.write': managers,

  'campaigns.write': managers,
  'campaigns.execute': managers,

  'links.write': allButReadOnly,
  'notifications.write': allButReadOnly,

  'groups.manage': administrators,
  'users.manage': administrators,
  'phoneNumbers.manage': administrators,
  'domains.manage': administrators,
  'integrations.manage': administrators,
  'account.manage': administrators,
  'account.close': administrators,
  'billing.view': administrators,
  'billing.manage': administrators,
  'apiCredentials.manage': administrators,
  'gdpr.manage': administrators,
  'reports.download': administrators,
};

/** What a refusal says a role may not do: "Your role (Read Only) may not do this: send messages." */
export const capabilityLabels: Record<Capability, string> = {
  'account.view': 'view this account',
  'contacts.write': 'add, edit or remove contacts',
  'contacts.import': 'upload contacts',
  'contacts.block': 'block contacts',
  'lists.write': 'add, edit or remove lists',
  'tags.write': 'add, edit or remove tags',
  'messages.send': 'send messages',
  'messages.markRead': 'mark messages read or unread',
  'media.upload': 'upload media',
  'conversations.start': 'start conversations',
  'conversations.answer': 'answer conversations',
  'conversations.close': 'close conversations',
  'conversations.assignGroup': 'assign conversations to a group',
  'calls.start': 'start calls',
  'tools.lookup': 'look up numbers',
  'templates.write': 'add, edit or remove templates',
  'autoResponders.write': 'add, edit or remove auto responders',
  'campaigns.write': 'add, edit or remove campaigns',
  'campaigns.execute': 'execute campaigns',
  'links.write': 'add, edit or remove links',
  'notifications.write': 'add, edit or remove notifications',
  'groups.manage': 'manage groups',
  'users.manage': 'manage users',
  'phoneNumbers.manage': 'manage phone numbers',
  'domains.manage': 'manage custom domains',
  'integrations.manage': 'manage integrations',
  'account.manage': 'change account settings',
  'account.close': 'close the account',
  'billing.view': 'view billing',
  'billing.manage': 'manage billing',
  'apiCredentials.manage': 'manage API credentials',
  'gdpr.manage': 'download or remove personal data',
  'reports.download': 'download reports',
};

export const can = (role: Role, capability: Capability): boolean => permissionTable[capability].includes(role);

export const capabilitiesOf = (role: Role): Capability[] => capabilities.filter((capability) => can(role, capability));
