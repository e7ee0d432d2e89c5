import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { TRIAL_CHOOSE_PLAN_TEXT, TRIAL_LACKS, trialStatusText } from './trialPlan';

/** Heads the Plan tab of a trial account: what the trial is, its days left, what it lacks and how to leave it. */
export const TrialPlanSection = ({ trial }: { trial: { daysLeft: number; expired: boolean } }) => (
  <Alert severity="info" data-testid="trial-plan" role="region" aria-label="Trial plan">
    <AlertTitle>Trial plan</AlertTitle>
    <Typography variant="body2">{trialStatusText(trial)}</Typography>
    <Typography variant="body2" sx={{ mt: 1 }}>
      Not on a trial:
    </Typography>
    <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
      {TRIAL_LACKS.map((item) => (
        <li key={item}>
          <Typography variant="body2">{item}</Typography>
        </li>
      ))}
    </Box>
    <Typography variant="body2" sx={{ mt: 1 }}>
      {TRIAL_CHOOSE_PLAN_TEXT}
    </Typography>
  </Alert>
);
