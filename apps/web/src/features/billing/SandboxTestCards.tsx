import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The sandbox's test cards (docs/billing.md): any future expiry and any 3 digits as the security code. */
const testCards = [
  ['4242 4242 4242 4242', 'succeeds'],
  ['4000 0027 6000 3184', 'asks for authentication (3-D Secure)'],
  ['4000 0000 0000 0002', 'is declined'],
  ['4000 0000 0000 0341', 'is saved, then declined when charged'],
] as const;

export const SandboxTestCards = () => (
  <Alert severity="info" role="note" aria-label="Sandbox test cards">
    <Typography variant="body2">
      This server&apos;s payment provider is the sandbox: no money moves and only its test cards are taken (any future expiry,
      any 3-digit CVC).
    </Typography>
    <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
      {testCards.map(([number, what]) => (
        <li key={number}>
          <Typography variant="body2">
            <Box component="span" sx={{ fontFamily: 'monospace' }}>
              {number}
            </Box>{' '}
            {what}
          </Typography>
        </li>
      ))}
    </Box>
  </Alert>
);
