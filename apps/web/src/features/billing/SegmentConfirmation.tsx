import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SEGMENT_UNDERSTANDING_MESSAGE, type CatalogPlan } from '@parley/shared';
import { useState } from 'react';
import { includedSegmentsText, planPriceText, SEGMENT_EXPLANATION, SEGMENT_UNDERSTANDING_LABEL } from './planCatalog';

interface SegmentConfirmationProps {
  plan: CatalogPlan;
  hasCard: boolean;
  pending: boolean;
  onBack: () => void;
  /** The segment explanation is understood, at this time (ISO). */
  onConfirm: (understoodAt: string) => void;
}

/** Before a plan changes: what the plan costs and includes, and the confirmation that billing is per segment. */
export const SegmentConfirmation = ({ plan, hasCard, pending, onBack, onConfirm }: SegmentConfirmationProps) => {
  const [understood, setUnderstood] = useState(false);
  const [tried, setTried] = useState(false);
  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }} role="region" aria-label="Confirm plan">
      <Typography variant="h6" component="h3">
        {plan.name}: {planPriceText(plan)}
      </Typography>
      <Typography>
        Includes {includedSegmentsText(plan)} segments a month in {plan.includedSegments.country}, with {plan.supportLevel.toLowerCase()}{' '}
        support. The card on file is charged at once for the rest of this month, prorated, then monthly.
      </Typography>
      <Alert severity="info">{SEGMENT_EXPLANATION}</Alert>
      <FormControlLabel
        control={
          <Checkbox
            checked={understood}
            onChange={(event) => {
              setUnderstood(event.target.checked);
            }}
          />
        }
        label={SEGMENT_UNDERSTANDING_LABEL}
      />
      {tried && !understood && <Alert severity="error">{SEGMENT_UNDERSTANDING_MESSAGE}</Alert>}
      {!hasCard && <Typography color="text.secondary">No card is on file yet: the payment details come next.</Typography>}
      <Stack direction="row" spacing={1}>
        <Button onClick={onBack} disabled={pending}>
          Back
        </Button>
        <Button
          variant="contained"
          loading={pending}
          onClick={() => {
            setTried(true);
            if (understood) onConfirm(new Date().toISOString());
          }}
        >
          {hasCard ? 'Change Plan' : 'Continue'}
        </Button>
      </Stack>
    </Stack>
  );
};
