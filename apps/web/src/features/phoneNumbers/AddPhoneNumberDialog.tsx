import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { PhoneNumber } from '@parley/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnackbar } from '../../components/snackbarContext';
import { BuyNumberForm } from './BuyNumberForm';
import { HostedNumberForm } from './HostedNumberForm';
import { numberToVerify } from './phoneNumberRules';
import { phoneNumbersQueryKey } from './queries';

type Way = 'buy' | 'hosted';

interface AddPhoneNumberDialogProps {
  accountId: string;
  defaultCountry: string;
  onClose: () => void;
  /** Opens the verification dialog for a new number that needs it. */
  onVerify: (phoneNumberId: string) => void;
}

/** 'Add A Phone Number': buy one of the carrier's numbers, or host the business's own. */
export const AddPhoneNumberDialog = ({ accountId, defaultCountry, onClose, onVerify }: AddPhoneNumberDialogProps) => {
  const queryClient = useQueryClient();
  const snackbar = useSnackbar();
  const [way, setWay] = useState<Way>('buy');

  const added = async (numbers: PhoneNumber[]) => {
    await queryClient.invalidateQueries({ queryKey: phoneNumbersQueryKey(accountId) });
    snackbar.show(numbers.length === 1 ? 'Phone number added' : `${numbers.length} phone numbers added`);
    const toVerify = numberToVerify(numbers);
    if (toVerify === null) onClose();
    else onVerify(toVerify);
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="add-phone-number-title" fullWidth maxWidth="sm">
      <DialogTitle id="add-phone-number-title">Add A Phone Number</DialogTitle>
      <Tabs
        value={way}
        onChange={(_event, value: Way) => {
          setWay(value);
        }}
        sx={{ px: 3, borderBottom: 1, borderColor: 'divider' }}
        aria-label="How to add the number"
      >
        <Tab value="buy" label="Buy" id="add-number-buy" aria-controls="add-number-panel" />
        <Tab value="hosted" label="Hosted" id="add-number-hosted" aria-controls="add-number-panel" />
      </Tabs>
      <div id="add-number-panel" role="tabpanel" aria-labelledby={way === 'buy' ? 'add-number-buy' : 'add-number-hosted'}>
        {way === 'buy' ? (
          <BuyNumberForm accountId={accountId} defaultCountry={defaultCountry} onCancel={onClose} onAdded={added} />
        ) : (
          <HostedNumberForm accountId={accountId} defaultCountry={defaultCountry} onCancel={onClose} onAdded={added} />
        )}
      </div>
    </Dialog>
  );
};
