import Chip from '@mui/material/Chip';
import { useOptionalSession } from '../../../session/sessionContext';
import { useHeldCount } from './queries';

/** The side menu's Approvals badge: how many messages wait for their recipients' acceptable hours. */
export const HeldBadge = () => {
  const account = useOptionalSession()?.account ?? null;
  const count = useHeldCount(account?.id ?? null, true);
  if (count.data === undefined || count.data === 0) return null;
  return (
    <Chip
      component="span"
      size="small"
      color="warning"
      label={count.data}
      aria-label={`${String(count.data)} held`}
      data-testid="held-badge"
      sx={{ height: 20, fontWeight: 700, '& .MuiChip-label': { px: 0.75 } }}
    />
  );
};
