import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** One labelled figure of the Plan tab (plan, balance, monthly charge, next bill date, card). */
export const PlanDetail = ({ label, value }: { label: string; value: string }) => (
  <Box>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography data-testid={`plan-${label.toLowerCase().replace(/\s/g, '-')}`}>{value}</Typography>
  </Box>
);
