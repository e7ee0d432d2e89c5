import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { INVALID_PAYMENT_DETAILS_TITLE } from './paymentDetails';

/** 'Invalid Payment Details' and what the form still needs, in the spec's texts. */
export const InvalidPaymentDetails = ({ messages }: { messages: string[] }) => (
  <Alert severity="error" role="alert">
    <AlertTitle>{INVALID_PAYMENT_DETAILS_TITLE}</AlertTitle>
    <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </Box>
  </Alert>
);
