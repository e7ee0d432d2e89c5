import { describe, expect, it } from 'vitest';
import { roles, type Role } from './permissions.js';
import {
  quickActionLabels,
  showsAccountSettingsIcon,
  showsAddPhoneNumber,
  showsAdminMenu,
  showsPaidPlanFeatures,
  showsTopup,
  showsUpgradeButton,
  visibleQuickActions,
  type QuickAction,
} from './visibility.js';

interface Expected {
  quickActions: QuickAction[];
  adminMenu: boolean;
  accountSettingsIcon: boolean;
  /** On a trial plan. */
  upgradeButton: boolean;
  /** On a paid plan. */
  topup: boolean;
  /** On a paid plan. */
  addPhoneNumber: boolean;
}

const expected: Record<Role, Expected> = {
  Administrator: {
    quickActions: ['sendMessage', 'createContact', 'createCampaign'],
    adminMenu: true,
    accountSettingsIcon: true,
    upgradeButton: true,
    topup: true,
    addPhoneNumber: true,
  },
  CampaignManager: {
    quickActions: ['sendMessage', 'createContact', 'createCampaign'],
    adminMenu: false,
    accountSettingsIcon: false,
    upgradeButton: false,
    topup: false,
    addPhoneNumber: false,
  },
  Sender: {
    quickActions: ['sendMessage', 'createContact'],
    adminMenu: false,
    accountSettingsIcon: false,
    upgradeButton: false,
    topup: false,
    addPhoneNumber: false,
  },
  ReadOnly: {
    quickActions: [],
    adminMenu: false,
    accountSettingsIcon: false,
    upgradeButton: false,
    topup: false,
    addPhoneNumber: false,
  },
};

describe.each(roles)('what %s sees', (role) => {
  const want = expected[role];
  const trial = { role, isTrial: true };
  const paid = { role, isTrial: false };

  it('gets the quick actions its capabilities allow', () => {
    expect(visibleQuickActions(role)).toEqual(want.quickActions);
  });

  it('sees the Admin menu and the account settings icon only as an administrator, on any plan', () => {
    expect(showsAdminMenu(role)).toBe(want.adminMenu);
    expect(showsAccountSettingsIcon(role)).toBe(want.accountSettingsIcon);
  });

  it('sees Upgrade on a trial plan only', () => {
    expect(showsUpgradeButton(trial)).toBe(want.upgradeButton);
    expect(showsUpgradeButton(paid)).toBe(false);
  });

  it('sees Topup and Add phone number on a paid plan only', () => {
    expect(showsTopup(paid)).toBe(want.topup);
    expect(showsTopup(trial)).toBe(false);
    expect(showsAddPhoneNumber(paid)).toBe(want.addPhoneNumber);
    expect(showsAddPhoneNumber(trial)).toBe(false);
  });
});

describe('plan rules', () => {
  it('show Links, Custom Domains and Auto Responders on paid plans only', () => {
    expect(showsPaidPlanFeatures(false)).toBe(true);
    expect(showsPaidPlanFeatures(true)).toBe(false);
  });
});

it('labels the quick actions Send Message, Create Contact and Create Campaign', () => {
  expect(quickActionLabels).toEqual({
    sendMessage: 'Send Message',
    createContact: 'Create Contact',
    createCampaign: 'Create Campaign',
  });
});
