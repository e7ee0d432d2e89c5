import type { Integration } from '@parley/shared';

/** The words and colour of an integration's status. */
export const statusChip = (integration: Integration): { label: string; color: 'success' | 'error' | 'default' } => {
  if (!integration.available) return { label: 'Not available yet', color: 'default' };
  switch (integration.status) {
    case 'connected':
      return { label: 'Connected', color: 'success' };
    case 'error':
      return { label: 'Error', color: 'error' };
    case 'notConnected':
      return { label: 'Not connected', color: 'default' };
  }
};
