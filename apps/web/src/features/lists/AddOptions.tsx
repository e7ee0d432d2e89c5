import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { LIST_SAVE_FAILED_MESSAGE } from '@parley/shared';
import { errorMessage } from '../../api/client';

interface AddOptionsProps {
  optIn: boolean;
  onOptIn: (optIn: boolean) => void;
  /** The adding, whose failure shows here. */
  add: { isError: boolean; error: unknown };
}

/** The end of a dialog that adds contacts to a list: whether they opted in, and why adding failed. */
export const AddOptions = ({ optIn, onOptIn, add }: AddOptionsProps) => (
  <>
    <FormControlLabel
      control={<Checkbox checked={optIn} onChange={(event) => { onOptIn(event.target.checked); }} />}
      label="They have opted in to this list (records today's date)"
    />
    {add.isError && (
      <Alert severity="error" variant="outlined" sx={{ mt: 1 }}>
        <AlertTitle>{LIST_SAVE_FAILED_MESSAGE}</AlertTitle>
        {errorMessage(add.error)}
      </Alert>
    )}
  </>
);
