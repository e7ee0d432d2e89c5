import Chip from '@mui/material/Chip';
import { featureRequestStatusLabels, type FeatureRequestStatus } from '@parley/shared';

const colors: Record<FeatureRequestStatus, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  open: 'default',
  planned: 'info',
  inProgress: 'warning',
  done: 'success',
  declined: 'error',
};

export const StatusChip = ({ status }: { status: FeatureRequestStatus }) => (
  <Chip size="small" variant="outlined" color={colors[status]} label={featureRequestStatusLabels[status]} />
);
