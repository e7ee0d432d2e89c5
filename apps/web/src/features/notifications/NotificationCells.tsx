import EmailOutlined from '@mui/icons-material/EmailOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Notification, NotificationType } from '@parley/shared';
import { flagLabels, flagOf, notificationFlags } from './eventTypes';
import { notificationState } from './notificationStatus';

export const typeLabels: Record<NotificationType, string> = { webhook: 'Webhook', email: 'Email' };

export const TypeChip = ({ type }: { type: NotificationType }) => (
  <Chip
    size="small"
    variant="outlined"
    icon={type === 'webhook' ? <WebhookOutlined /> : <EmailOutlined />}
    label={typeLabels[type]}
    sx={{ alignSelf: 'flex-start' }}
  />
);

/** The event types that are on, as flags; every one of them reads 'All events'. */
export const EventChips = ({ notification }: { notification: Notification }) => {
  const { eventTypes } = notification;
  if (eventTypes.length === notificationFlags.length) {
    return <Chip size="small" color="primary" variant="outlined" label="All events" sx={{ alignSelf: 'flex-start' }} />;
  }
  if (eventTypes.length === 0) return <Typography variant="body2" color="text.secondary">No events</Typography>;
  return (
    <Box component="ul" aria-label="Events" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, m: 0, p: 0, listStyle: 'none' }}>
      {eventTypes.map((type) => (
        <li key={type}>
          <Chip size="small" label={flagLabels[flagOf(type)]} />
        </li>
      ))}
    </Box>
  );
};

const shortReasons = { gone: 'Endpoint gone (410)', failing: 'Failed for 5 days' } as const;

/** Enabled or Disabled, why Parley disabled it, and a warning while its deliveries fail. */
export const StatusCell = ({ notification }: { notification: Notification }) => {
  const state = notificationState(notification);
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Tooltip title={state.reason ?? ''}>
        <Chip size="small" label={state.label} color={state.label === 'Enabled' ? 'success' : 'default'} variant="outlined" />
      </Tooltip>
      {notification.disabledReason !== undefined && (
        <Typography variant="caption" color="text.secondary">
          {shortReasons[notification.disabledReason]}
        </Typography>
      )}
      {state.warning !== null && (
        <Tooltip title={state.warning}>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', color: 'warning.main' }}>
            <WarningAmberOutlined fontSize="small" aria-hidden />
            <Typography variant="caption">Failing</Typography>
          </Stack>
        </Tooltip>
      )}
    </Stack>
  );
};

/** A destination, wrapped anywhere (a long URL must not widen the row). */
export const Destination = ({ value }: { value: string }) => (
  <Box component="span" sx={{ wordBreak: 'break-all', fontFamily: 'monospace', fontSize: '0.85rem' }}>
    {value}
  </Box>
);
