import { can, type Capability, type Role } from './permissions.js';

/** Who is looking: the role in the current account and whether the account is on a trial plan. */
export interface Viewer {
  role: Role;
  isTrial: boolean;
}

export const quickActions = ['sendMessage', 'createContact', 'createCampaign'] as const;
export type QuickAction = (typeof quickActions)[number];

export const quickActionLabels: Record<QuickAction, string> = {
  sendMessage: 'Send Message',
  createContact: 'Create Contact',
  createCampaign: 'Create Campaign',
};

const quickActionCapability: Record<QuickAction, Capability> = {
  sendMessage: 'messages.send',
  createContact: 'contacts.write',
  createCampaign: 'campaigns.write',
};

/** The side menu's quick actions a role may use, in the product's order. */
export const visibleQuickActions = (role: Role): QuickAction[] =>
  quickActions.filter((action) => can(role, quickActionCapability[action]));

/** Links, Custom Domains and Auto Responders in the side menu, and Topup, show on paid plans only. */
export const showsPaidPlanFeatures = (isTrial: boolean): boolean => !isTrial;

/** The Admin menu holds GDPR, so it shows to whoever may manage personal data. */
export const showsAdminMenu = (role: Role): boolean => can(role, 'gdpr.manage');

export const showsAccountSettingsIcon = (role: Role): boolean => can(role, 'account.manage');

/** The Upgrade button (with the trial's days left) changes the plan, which is billing. */
export const showsUpgradeButton = ({ role, isTrial }: Viewer): boolean => isTrial && can(role, 'billing.manage');

export const showsTopup = ({ role, isTrial }: Viewer): boolean =>
  showsPaidPlanFeatures(isTrial) && can(role, 'billing.manage');

/**
 * Add phone number is hidden from read-only users and trial plans; it sits in Account settings,
 * which only administrators open, and adding a number is phone-number management.
 */
export const showsAddPhoneNumber = ({ role, isTrial }: Viewer): boolean =>
  !isTrial && can(role, 'phoneNumbers.manage');
