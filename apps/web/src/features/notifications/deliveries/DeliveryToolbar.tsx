import KeyOutlined from '@mui/icons-material/KeyOutlined';
import SendOutlined from '@mui/icons-material/SendOutlined';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { notificationDeliveryStatuses, type NotificationDeliveryStatus } from '@parley/shared';
import { deliveryStatusLabels } from './deliveryFormat';

interface DeliveryToolbarProps {
  status: NotificationDeliveryStatus | null;
  onStatus: (status: NotificationDeliveryStatus | null) => void;
  /** Writers only: send a test event, and for a webhook rotate its secret. */
  onTest?: () => void;
  testing: boolean;
  onRotate?: () => void;
}

const isStatus = (value: string): value is NotificationDeliveryStatus => (notificationDeliveryStatuses as readonly string[]).includes(value);

/** Above the delivery log: which deliveries it shows, and what a writer may do. */
export const DeliveryToolbar = ({ status, onStatus, onTest, testing, onRotate }: DeliveryToolbarProps) => (
  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 1.5, alignItems: { xs: 'stretch', sm: 'center' } }}>
    <TextField
      select
      size="small"
      label="Status"
      value={status ?? 'all'}
      onChange={(event) => { onStatus(isStatus(event.target.value) ? event.target.value : null); }}
      sx={{ minWidth: 160 }}
    >
      <MenuItem value="all">All</MenuItem>
      {notificationDeliveryStatuses.map((s) => (
        <MenuItem key={s} value={s}>
          {deliveryStatusLabels[s]}
        </MenuItem>
      ))}
    </TextField>
    <Stack direction="row" spacing={1} useFlexGap sx={{ flex: 1, justifyContent: { xs: 'flex-start', sm: 'flex-end' }, flexWrap: 'wrap' }}>
      {onTest !== undefined && (
        <Button variant="outlined" startIcon={<SendOutlined />} loading={testing} onClick={onTest}>
          Send Test Event
        </Button>
      )}
      {onRotate !== undefined && (
        <Button variant="outlined" startIcon={<KeyOutlined />} onClick={onRotate}>
          Rotate Secret
        </Button>
      )}
    </Stack>
  </Stack>
);
