import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import type { NotificationDelivery } from '@parley/shared';
import { eventTypeLabel } from '../eventTypes';
import { clockText, dayText, deliveryStatusColours, deliveryStatusLabels, durationText, timeText } from './deliveryFormat';

const fixed = { sortable: false, filterable: false, disableColumnMenu: true } as const;

/**
 * The delivery log's columns, newest first as the server answers them, so none sorts. On a phone the time takes
 * two lines and the code, duration and attempts wait for the delivery's own dialog.
 */
export const deliveryColumns = (compact: boolean): GridColDef<NotificationDelivery>[] => [
  {
    field: 'created',
    headerName: 'Time',
    width: compact ? 100 : 170,
    ...fixed,
    valueGetter: (_value, row) => timeText(row.created.at),
    // On a phone the day over the time, in two short lines.
    ...(compact
      ? {
          renderCell: ({ row }) => (
            <Stack sx={{ justifyContent: 'center', height: '100%', lineHeight: 1.3 }}>
              <span>{dayText(row.created.at)}</span>
              <span>{clockText(row.created.at)}</span>
            </Stack>
          ),
        }
      : {}),
  },
  { field: 'eventType', headerName: 'Event', flex: 1, minWidth: compact ? 100 : 150, ...fixed, valueGetter: (_value, row) => eventTypeLabel(row.eventType) },
  {
    field: 'status',
    headerName: 'Status',
    width: compact ? 100 : 120,
    ...fixed,
    renderCell: ({ row }) => <Chip size="small" variant="outlined" color={deliveryStatusColours[row.status]} label={deliveryStatusLabels[row.status]} />,
  },
  {
    field: 'statusCode',
    headerName: 'Code',
    width: 80,
    ...fixed,
    valueGetter: (_value, row) => (row.lastAttempt?.statusCode === undefined ? '—' : String(row.lastAttempt.statusCode)),
  },
  { field: 'duration', headerName: 'Duration', width: 100, ...fixed, valueGetter: (_value, row) => durationText(row.lastAttempt?.durationMs) },
  { field: 'attempts', headerName: 'Attempts', width: 90, ...fixed, type: 'number' },
];

export const compactDeliveryVisibility = { statusCode: false, duration: false, attempts: false };
