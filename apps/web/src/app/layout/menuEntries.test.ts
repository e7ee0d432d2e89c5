import { roles } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { menuEntries, menuQuickActions, type MenuEntry } from './menuEntries';

const labels = (entries: MenuEntry[]): string[] => entries.map((entry) => entry.label);
const group = (entries: MenuEntry[], id: string) => {
  const found = entries.find((entry) => entry.id === id);
  if (found?.kind !== 'group') throw new Error(`no group ${id}`);
  return found;
};

describe('menuEntries', () => {
  it('shows an administrator on a paid plan without lists every entry but Lists', () => {
    expect(labels(menuEntries())).toEqual([
      'Accounts',
      'Contacts',
      'Campaigns',
      'Conversations',
      'Templates',
      'Integrations',
      'Notifications',
      'Links',
      'Custom Domains',
      'Auto Responders',
      'Admin',
      'Logout',
    ]);
  });

  it('links every entry to a route', () => {
    const links = menuEntries().flatMap((entry) => (entry.kind === 'group' ? entry.children : [entry]));
    expect(links.map((entry) => entry.to)).toEqual([
      '/accounts',
      '/contacts',
      '/campaigns',
      '/conversations',
      '/templates/sms',
      '/templates/web',
      '/templates/optin',
      ...[
        'activecampaign',
        'aircall',
        'callrail',
        'cradle',
        'email',
        'googlecalendar',
        'hubspot',
        'intercom',
        'pipedrive',
        'slack',
        'twilio',
        'webhooks',
        'zapier',
      ].map((slug) => `/integrations/${slug}`),
      '/notifications',
      '/links/urlshortener',
      '/links/customdomains',
      '/autoresponders',
      '/admin/gdpr',
      '/logout',
    ]);
  });

  it('puts sms, web and optin under Templates and GDPR under Admin', () => {
    expect(labels(group(menuEntries(), 'templates').children)).toEqual(['SMS', 'Web', 'OptIn']);
    expect(labels(group(menuEntries(), 'admin').children)).toEqual(['GDPR']);
  });

  it('links Admin to Approvals, with their count, while quiet hours hold messages', () => {
    const approvals = group(menuEntries({ heldMessages: 3 }), 'admin').children.find((child) => child.id === 'admin-approvals');
    expect(approvals).toMatchObject({ label: 'Approvals', to: '/approvals/acceptablehours', badge: 'held' });
    expect(labels(group(menuEntries({ heldMessages: 0 }), 'admin').children)).toEqual(['GDPR']);
  });

  it.each(['CampaignManager', 'Sender', 'ReadOnly'] as const)('hides Admin from %s', (role) => {
    expect(labels(menuEntries({ role }))).not.toContain('Admin');
  });

  it('hides Links, Custom Domains and Auto Responders on a trial plan', () => {
    const shown = labels(menuEntries({ isTrial: true }));
    expect(shown).not.toContain('Links');
    expect(shown).not.toContain('Custom Domains');
    expect(shown).not.toContain('Auto Responders');
    expect(shown).toContain('Admin');
  });

  it.each(roles)('shows Links, Custom Domains and Auto Responders to %s on a paid plan', (role) => {
    expect(labels(menuEntries({ role, isTrial: false }))).toEqual(
      expect.arrayContaining(['Links', 'Custom Domains', 'Auto Responders']),
    );
  });

  it('shows Lists after Notifications when the account has a list', () => {
    const entries = menuEntries({ hasLists: true, lists: [{ id: 'l 1', name: 'VIP' }] });
    expect(labels(entries).slice(6, 8)).toEqual(['Notifications', 'Lists']);
    expect(group(entries, 'lists').children).toEqual([{ kind: 'link', id: 'lists-l 1', label: 'VIP', to: '/lists/l%201', icon: undefined }]);
  });

  it('offers New List under Lists to the roles that may write lists', () => {
    const lists = [{ id: 'l1', name: 'VIP' }];
    for (const role of roles) {
      const action = group(menuEntries({ role, hasLists: true, lists }), 'lists').action;
      expect(action, role).toEqual(role === 'ReadOnly' ? undefined : { id: 'createList', label: 'New List' });
    }
    expect(labels(menuEntries({ hasLists: false, lists: [] }))).not.toContain('Lists');
  });

  it('links the Simulator before Logout, for every role, only where the deployment has the simulator', () => {
    expect(labels(menuEntries())).not.toContain('Simulator');
    expect(labels(menuEntries({ simulator: false }))).not.toContain('Simulator');
    for (const role of roles) {
      const entries = menuEntries({ role, simulator: true });
      expect(labels(entries).slice(-2), role).toEqual(['Simulator', 'Logout']);
      expect(entries.at(-2)).toEqual({ kind: 'link', id: 'simulator', label: 'Simulator', to: '/simulator', icon: 'simulator' });
    }
  });

  it('keeps Accounts first and Logout last for every role and plan', () => {
    for (const role of roles) {
      for (const isTrial of [true, false]) {
        const shown = labels(menuEntries({ role, isTrial }));
        expect(shown[0]).toBe('Accounts');
        expect(shown.at(-1)).toBe('Logout');
      }
    }
  });
});

describe('menuQuickActions', () => {
  it.each([
    ['Administrator', ['Send Message', 'Create Contact', 'Create Campaign']],
    ['CampaignManager', ['Send Message', 'Create Contact', 'Create Campaign']],
    ['Sender', ['Send Message', 'Create Contact']],
    ['ReadOnly', []],
  ] as const)('gives %s %j', (role, expected) => {
    expect(menuQuickActions(role).map((action) => action.label)).toEqual(expected);
  });

  it('names each action by its id', () => {
    expect(menuQuickActions('Administrator').map((action) => action.id)).toEqual([
      'sendMessage',
      'createContact',
      'createCampaign',
    ]);
  });
});
