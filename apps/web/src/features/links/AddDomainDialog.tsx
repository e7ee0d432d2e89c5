import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { addCustomDomainSchema, type CustomDomain } from '@parley/shared';
import { useId } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { useAddDomain } from './queries';

type Input = z.input<typeof addCustomDomainSchema>;
type Output = z.output<typeof addCustomDomainSchema>;

/** Adds a domain (http://, https:// and www. stripped); the verify dialog opens next. */
export const AddDomainDialog = ({ accountId, onClose, onAdded }: { accountId: string; onClose: () => void; onAdded: (domain: CustomDomain) => void }) => {
  const titleId = useId();
  const add = useAddDomain(accountId);
  const { register, handleSubmit, formState } = useForm<Input, unknown, Output>({ resolver: zodResolver(addCustomDomainSchema), defaultValues: { domain: '' } });
  const submit: SubmitHandler<Output> = (values) => {
    add.mutate(values.domain, { onSuccess: onAdded });
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>Add Custom Domain</DialogTitle>
        <DialogContent>
          <TextField
            label="Domain"
            required
            autoFocus
            fullWidth
            placeholder="go.example.com"
            sx={{ mt: 1 }}
            disabled={add.isPending}
            {...register('domain')}
            error={!!formState.errors.domain}
            helperText={formState.errors.domain?.message ?? 'A domain you own, such as example.com or go.example.com'}
          />
          {add.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessage(add.error)}
            </Alert>
          )}
        </DialogContent>
        <DialogFooter label="Add" onCancel={onClose} pending={add.isPending} />
      </form>
    </Dialog>
  );
};
