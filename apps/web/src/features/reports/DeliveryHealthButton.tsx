import MonitorHeartOutlined from '@mui/icons-material/MonitorHeartOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { can, type DeliveryHealth, type DeliveryHealthLevel } from '@parley/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useApiClient } from '../../api/apiContext';
import { useOptionalSession } from '../../session/sessionContext';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { carrierErrorText, deliveryHealthLabels, deliveryHealthLines } from './deliveryHealthText';

/** How often the top bar asks again. */
const HEALTH_REFRESH_MS = 60_000;

const dotColors: Record<DeliveryHealthLevel, 'default' | 'success' | 'warning' | 'error'> = {
  none: 'default',
  green: 'success',
  amber: 'warning',
  red: 'error',
};

const HealthDetails = ({ health, onNavigate }: { health: DeliveryHealth; onNavigate: () => void }) => {
  const display = usePhoneDisplay();
  return (
    <Box sx={{ p: 2, maxWidth: 360 }}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {deliveryHealthLabels[health.level]}
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        The last 24 hours
      </Typography>
      {deliveryHealthLines(health).map((line) => (
        <Typography key={line} variant="body2">
          {line}
        </Typography>
      ))}
      {health.carrierErrors.length > 0 && (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1.5 }}>
            Carrier errors
          </Typography>
          <ul aria-label="Carrier errors" style={{ margin: 0, paddingLeft: 20 }}>
            {health.carrierErrors.map((error) => (
              <li key={error.code}>
                <Typography variant="body2">{carrierErrorText(error)}</Typography>
              </li>
            ))}
          </ul>
        </>
      )}
      {health.recentErrors.length > 0 && (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1.5 }}>
            Latest texts with errors
          </Typography>
          <ul aria-label="Latest texts with errors" style={{ margin: 0, paddingLeft: 20 }}>
            {health.recentErrors.map((error) => (
              <li key={error.messageId}>
                <Link component={RouterLink} to={`/conversations/${error.conversationId}`} variant="body2" onClick={onNavigate}>
                  {`${display.phone(error.to)} · ${error.code === '' ? 'error' : error.code} · ${new Date(error.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </Box>
  );
};

/**
 * The administrators' delivery health in the top bar (docs/reports.md, "Delivery health"): a dot coloured by
 * the last 24 hours' level, and the figures, carrier errors and the latest failed texts behind it.
 */
export const DeliveryHealthButton = () => {
  const session = useOptionalSession();
  const account = session?.account ?? null;
  const allowed = account !== null && can(account.user.role, 'reports.download');
  const api = useApiClient();
  const popoverId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const health = useQuery({
    queryKey: ['accounts', account?.id, 'deliveryHealth'],
    enabled: allowed,
    queryFn: async ({ signal }) => (await api.get<{ data: DeliveryHealth }>(`/v1/accounts/${account?.id ?? ''}/reports/deliveryhealth`, { signal })).data,
    refetchInterval: HEALTH_REFRESH_MS,
  });
  if (!allowed || health.data === undefined) return null;
  const label = `Delivery health: ${deliveryHealthLabels[health.data.level]}`;
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={label}
          aria-haspopup="dialog"
          aria-controls={anchor === null ? undefined : popoverId}
          onClick={(event) => {
            setAnchor(event.currentTarget);
          }}
        >
          <Badge variant="dot" color={dotColors[health.data.level]} invisible={health.data.level === 'none'} overlap="circular">
            <MonitorHeartOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        id={popoverId}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => {
          setAnchor(null);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Delivery health' } }}
      >
        <HealthDetails
          health={health.data}
          onNavigate={() => {
            setAnchor(null);
          }}
        />
      </Popover>
    </>
  );
};
