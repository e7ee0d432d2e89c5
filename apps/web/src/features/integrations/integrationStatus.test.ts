import { describe, expect, it } from 'vitest';
import type { Integration } from '@parley/shared';
import { statusChip } from './integrationStatus';

const integration = (over: Partial<Integration>): Integration => ({
  integration: 'activecampaign',
  name: 'ActiveCampaign',
  available: true,
  status: 'notConnected',
  properties: {},
  syncs: {},
  ...over,
});

describe('statusChip', () => {
  it('says what the list shows for each state', () => {
    expect(statusChip(integration({}))).toEqual({ label: 'Not connected', color: 'default' });
    expect(statusChip(integration({ status: 'connected' }))).toEqual({ label: 'Connected', color: 'success' });
    expect(statusChip(integration({ status: 'error' }))).toEqual({ label: 'Error', color: 'error' });
    expect(statusChip(integration({ integration: 'aircall', available: false }))).toEqual({ label: 'Not available yet', color: 'default' });
  });
});
