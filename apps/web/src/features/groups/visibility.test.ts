import { describe, expect, it } from 'vitest';
import { showsGroupsMenu } from './visibility';

describe('showsGroupsMenu', () => {
  it('shows Groups to administrators even before any phone number is active', () => {
    expect(showsGroupsMenu('Administrator', 0)).toBe(true);
  });

  it.each(['CampaignManager', 'Sender', 'ReadOnly'] as const)('shows Groups to %s only once a phone number is active', (role) => {
    expect(showsGroupsMenu(role, 0)).toBe(false);
    expect(showsGroupsMenu(role, 1)).toBe(true);
  });
});
