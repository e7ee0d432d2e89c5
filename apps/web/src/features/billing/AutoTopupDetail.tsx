import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { autoTopupSummary, type AccountAutoTopup } from './autoTopup';
import { AutoTopupDialog } from './AutoTopupDialog';
import { PlanDetail } from './PlanDetail';

interface AutoTopupDetailProps {
  accountId: string;
  rule: AccountAutoTopup | null;
  /** May change billing (`billing.manage`): the Edit button that opens 'Auto Top Up'. */
  manage: boolean;
}

/** The Plan tab's auto top-up summary ('Off', or 'Top up by $50 when below $10'), shown once a card is on file. */
export const AutoTopupDetail = ({ accountId, rule, manage }: AutoTopupDetailProps) => {
  const [open, setOpen] = useState(false);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <PlanDetail label="Auto Top Up" value={autoTopupSummary(rule)} />
      {manage && (
        <Button
          variant="outlined"
          size="small"
          aria-label="Edit Auto Top Up"
          sx={{ flexShrink: 0 }}
          onClick={() => {
            setOpen(true);
          }}
        >
          Edit
        </Button>
      )}
      {open && (
        <AutoTopupDialog
          accountId={accountId}
          rule={rule}
          onClose={() => {
            setOpen(false);
          }}
        />
      )}
    </Box>
  );
};
