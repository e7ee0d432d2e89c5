import { describe, expect, it } from 'vitest';
import {
  can,
  capabilities,
  capabilitiesOf,
  capabilityGroups,
  capabilityLabels,
  permissionTable,
  roleLabels,
  roleSchema,
  roles,
  type Capability,
} from './permissions.js';

type Mark = 'Y' | '-';

/** The design's role table written out in full: columns Administrator, CampaignManager, Sender, ReadOnly. */
const expected: [Capability, Mark, Mark, Mark, Mark][] = [
  ['account.view', 'Y', 'Y', 'Y', 'Y'],

  ['contacts.write', 'Y', 'Y', 'Y', '-'],
  ['contacts.import', 'Y', 'Y', 'Y', '-'],
  ['contacts.block', 'Y', 'Y', 'Y', '-'],
  ['lists.write', 'Y', 'Y', 'Y', '-'],
  ['tags.write', 'Y', 'Y', 'Y', '-'],

  ['messages.send', 'Y', 'Y', 'Y', '-'],
  ['messages.markRead', 'Y', 'Y', 'Y', '-'],
  ['media.upload', 'Y', 'Y', 'Y', '-'],
  ['conversations.start', 'Y', 'Y', 'Y', '-'],
  ['conversations.answer', 'Y', 'Y', 'Y', '-'],
  ['conversations.close', 'Y', 'Y', 'Y', '-'],
  ['conversations.assignGroup', 'Y', 'Y', 'Y', '-'],
  ['calls.start', 'Y', 'Y', 'Y', '-'],
  ['tools.lookup', 'Y', 'Y', 'Y', '-'],

  ['templates.write', 'Y', 'Y', '-', '-'],
  ['autoResponders.write', 'Y', 'Y', '-', '-'],

  ['campaigns.write', 'Y', 'Y', '-', '-'],
  ['campaigns.execute', 'Y', 'Y', '-', '-'],

  ['links.write', 'Y', 'Y', 'Y', '-'],
  ['notifications.write', 'Y', 'Y', 'Y', '-'],

  ['groups.manage', 'Y', '-', '-', '-'],
  ['users.manage', 'Y', '-', '-', '-'],
  ['phoneNumbers.manage', 'Y', '-', '-', '-'],
  ['domains.manage', 'Y', '-', '-', '-'],
  ['integrations.manage', 'Y', '-', '-', '-'],
  ['account.manage', 'Y', '-', '-', '-'],
  ['account.close', 'Y', '-', '-', '-'],
  ['billing.view', 'Y', '-', '-', '-'],
  ['billing.manage', 'Y', '-', '-', '-'],
  ['apiCredentials.manage', 'Y', '-', '-', '-'],
  ['gdpr.manage', 'Y', '-', '-', '-'],
  ['reports.download', 'Y', '-', '-', '-'],
];

const cells = expected.flatMap(([capability, ...marks]) =>
  roles.map((role, column) => ({ role, capability, allowed: marks[column] === 'Y' })),
);

describe('roles', () => {
  it('are Administrator, Campaign Manager, Sender and Read Only, with their display labels', () => {
    expect(roles).toEqual(['Administrator', 'CampaignManager', 'Sender', 'ReadOnly']);
    expect(roles.map((role) => roleLabels[role])).toEqual(['Administrator', 'Campaign Manager', 'Sender', 'Read Only']);
  });

  it('parse with roleSchema and refuse anything else', () => {
    for (const role of roles) expect(roleSchema.parse(role)).toBe(role);
    expect(roleSchema.safeParse('Read Only').success).toBe(false);
    expect(roleSchema.safeParse('administrator').success).toBe(false);
  });
});

describe('permission table', () => {
  it('covers exactly the capabilities the expected table lists, in its order', () => {
    expect(capabilities).toEqual(expected.map(([capability]) => capability));
    expect(Object.keys(permissionTable).sort()).toEqual([...capabilities].sort());
    expect(new Set(capabilities).size).toBe(capabilities.length);
  });

  it('groups every capability once', () => {
    expect(Object.values(capabilityGroups).flat()).toEqual(capabilities);
  });

  it.each(cells.filter((cell) => cell.allowed))('lets $role do $capability', ({ role, capability }) => {
    expect(can(role, capability)).toBe(true);
  });

  it.each(cells.filter((cell) => !cell.allowed))('refuses $capability to $role', ({ role, capability }) => {
    expect(can(role, capability)).toBe(false);
  });

  it('lists what each role may do', () => {
    for (const [column, role] of roles.entries()) {
      const allowed = expected.filter((row) => row[column + 1] === 'Y').map(([capability]) => capability);
      expect(capabilitiesOf(role)).toEqual(allowed);
    }
  });

  it('gives each role everything the next role may do, and more', () => {
    for (const [index, role] of roles.entries()) {
      const next = roles[index + 1];
      if (next === undefined) continue;
      const mine = capabilitiesOf(role);
      const theirs = capabilitiesOf(next);
      expect(mine).toEqual(expect.arrayContaining(theirs));
      expect(mine.length).toBeGreaterThan(theirs.length);
    }
    expect(roles.map((role) => capabilitiesOf(role).length)).toEqual([33, 21, 17, 1]);
  });

  it('names every capability in plain words', () => {
    for (const capability of capabilities) expect(capabilityLabels[capability]).toMatch(/^[a-z][a-zA-Z ,]+[a-z]$/);
  });
});
