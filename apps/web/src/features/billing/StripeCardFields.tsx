import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { CardCvcElement, CardExpiryElement, CardNumberElement } from '@stripe/react-stripe-js';
import type { StripeCardCvcElementChangeEvent, StripeCardExpiryElementChangeEvent, StripeCardNumberElementChangeEvent, StripeElementStyle } from '@stripe/stripe-js';
import { useState, type ReactNode } from 'react';
import type { CardFieldStates } from './stripeCardFlow';

type CardField = keyof CardFieldStates;
type ChangeEvent = StripeCardNumberElementChangeEvent | StripeCardExpiryElementChangeEvent | StripeCardCvcElementChangeEvent;

interface StripeFieldProps {
  label: string;
  wide?: boolean;
  focused: boolean;
  /** Stripe's own message for what was typed ('Your card number is invalid.'), or the spec's once submitted. */
  error: string | null;
  disabled: boolean;
  children: ReactNode;
}

/** One of Stripe's card fields (an iframe of Stripe's) framed as the form's outlined text fields are. */
const StripeField = ({ label, wide, focused, error, disabled, children }: StripeFieldProps) => (
  <Box sx={wide === true ? { gridColumn: { sm: '1 / -1' } } : undefined}>
    <Typography component="div" variant="caption" color={error === null ? 'text.secondary' : 'error'} sx={{ mb: 0.5 }}>
      {label} *
    </Typography>
    <Box
      sx={{
        border: 1,
        borderRadius: 1,
        px: 1.75,
        py: 2,
        opacity: disabled ? 0.6 : 1,
        borderColor: error !== null ? 'error.main' : focused ? 'primary.main' : 'action.disabled',
        boxShadow: (theme) => (focused ? `inset 0 0 0 1px ${error !== null ? theme.palette.error.main : theme.palette.primary.main}` : 'none'),
        '&:hover': { borderColor: error !== null ? 'error.main' : focused ? 'primary.main' : 'text.primary' },
      }}
    >
      {children}
    </Box>
    {error !== null && <FormHelperText error>{error}</FormHelperText>}
  </Box>
);

interface StripeCardFieldsProps {
  disabled: boolean;
  /** The spec's text for each field that is not complete, once the form was submitted. */
  missing: Partial<Record<CardField, string>>;
  onChange: (field: CardField, complete: boolean) => void;
}

/**
 * The card itself in Stripe's fields (Stripe Elements: number, expiry, CVC; docs/decisions.md): the card
 * never passes through this page's code or the server, only the PaymentMethod Stripe makes of it.
 */
export const StripeCardFields = ({ disabled, missing, onChange }: StripeCardFieldsProps) => {
  const theme = useTheme();
  const [focused, setFocused] = useState<CardField | null>(null);
  const [errors, setErrors] = useState<Partial<Record<CardField, string>>>({});
  const style: StripeElementStyle = {
    base: {
      fontSize: '16px',
      fontFamily: theme.typography.fontFamily ?? 'sans-serif',
      color: theme.palette.text.primary,
      '::placeholder': { color: theme.palette.text.secondary },
    },
    invalid: { color: theme.palette.error.main },
  };
  const handlers = (field: CardField) => ({
    onChange: (event: ChangeEvent) => {
      setErrors((known) => ({ ...known, [field]: event.error?.message }));
      onChange(field, event.complete);
    },
    onFocus: () => {
      setFocused(field);
    },
    onBlur: () => {
      setFocused((current) => (current === field ? null : current));
    },
  });
  const errorOf = (field: CardField): string | null => errors[field] ?? missing[field] ?? null;
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
      <StripeField label="Card Number" wide focused={focused === 'cardNumber'} error={errorOf('cardNumber')} disabled={disabled}>
        <CardNumberElement options={{ style, disabled, showIcon: true }} {...handlers('cardNumber')} />
      </StripeField>
      <StripeField label="Expiry (MM/YY)" focused={focused === 'expiry'} error={errorOf('expiry')} disabled={disabled}>
        <CardExpiryElement options={{ style, disabled }} {...handlers('expiry')} />
      </StripeField>
      <StripeField label="CVC" focused={focused === 'cvc'} error={errorOf('cvc')} disabled={disabled}>
        <CardCvcElement options={{ style, disabled }} {...handlers('cvc')} />
      </StripeField>
    </Box>
  );
};
