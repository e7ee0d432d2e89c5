import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import type { GsmFix } from './gsmFix';
import { describeReplacement } from './gsmFix';

export interface GsmFixAlertProps {
  fix: GsmFix;
  onApply: (text: string) => void;
  disabled?: boolean;
}

/** Under the editor's UCS-2 notice: the characters with a GSM-7 look-alike, replaced in one click. */
export const GsmFixAlert = ({ fix, onApply, disabled = false }: GsmFixAlertProps) => (
  <Alert
    severity="info"
    variant="outlined"
    action={
      <Button
        color="inherit"
        size="small"
        disabled={disabled}
        onClick={() => {
          onApply(fix.text);
        }}
      >
        Replace
      </Button>
    }
  >
    GSM-7 look-alikes: <strong>{fix.replacements.map(describeReplacement).join(', ')}</strong>.
    {fix.remaining.length > 0
      ? ` The message stays UCS-2 while these remain: ${fix.remaining.join(' ')}.`
      : ' Replaced, the text itself needs no UCS-2: 160 characters a segment instead of 70.'}
  </Alert>
);
