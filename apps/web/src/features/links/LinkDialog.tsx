import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { LINK_DIALOG_TITLE, LINK_NAME_MAX, saveLinkSchema, type Link, type SaveLink, type SaveLinkInput } from '@parley/shared';
import { useEffect, useId, useMemo } from 'react';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { useSnackbar } from '../../components/snackbarContext';
import { isVerified, useDomains, useSaveLink } from './queries';

interface LinkDialogProps {
  accountId: string;
  /** The link to edit; null to add one. */
  link: Link | null;
  onClose: () => void;
}

/** 'Add A Link': name, destination, domain (shared or a verified custom one) and contact tracking. */
export const LinkDialog = ({ accountId, link, onClose }: LinkDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const shared = useDomains(accountId, true);
  const own = useDomains(accountId);
  const domains = useMemo(() => [...(shared.data?.data ?? []), ...(own.data?.data ?? []).filter((d) => isVerified(d))], [shared.data, own.data]);
  const save = useSaveLink(accountId, link?.id ?? null);
  const { register, control, handleSubmit, formState, getValues, setValue } = useForm<SaveLinkInput, unknown, SaveLink>({
    resolver: zodResolver(saveLinkSchema),
    defaultValues: {
      name: link?.name ?? '',
      destinationUrl: link?.destinationUrl ?? '',
      domain: { id: link?.domain.id ?? '' },
      contactTracking: link?.contactTracking ?? false,
    },
  });
  const firstDomain = domains[0]?.id ?? '';
  // A new link starts on the first domain offered (the shared one) once the list has come.
  useEffect(() => {
    if (getValues('domain').id === '' && firstDomain !== '') setValue('domain', { id: firstDomain });
  }, [firstDomain, getValues, setValue]);

  const submit: SubmitHandler<SaveLink> = (values) => {
    save.mutate(values, {
      onSuccess: () => {
        snackbar.show(link === null ? 'Link added' : 'Link saved');
        onClose();
      },
    });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{LINK_DIALOG_TITLE}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Name"
              required
              autoFocus
              disabled={save.isPending}
              {...register('name')}
              error={!!formState.errors.name}
              helperText={formState.errors.name?.message}
              slotProps={{ htmlInput: { maxLength: LINK_NAME_MAX } }}
            />
            <TextField
              label="Destination URL"
              required
              type="url"
              placeholder="https://"
              disabled={save.isPending}
              {...register('destinationUrl')}
              error={!!formState.errors.destinationUrl}
              helperText={formState.errors.destinationUrl?.message}
            />
            <Controller
              control={control}
              name="domain"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label="Domain"
                  required
                  disabled={save.isPending}
                  value={field.value.id}
                  onChange={(event) => {
                    field.onChange({ id: event.target.value });
                  }}
                  error={fieldState.invalid}
                  helperText={fieldState.error?.message ?? fieldState.error?.root?.message ?? 'Custom domains appear here once verified.'}
                >
                  {domains.map((d) => (
                    <MenuItem key={d.id} value={d.id}>
                      {d.domain}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Controller
              control={control}
              name="contactTracking"
              render={({ field }) => (
                <FormControlLabel
                  control={<Switch checked={field.value === true} onChange={(_e, checked) => { field.onChange(checked); }} disabled={save.isPending} />}
                  label="Contact tracking: a code per recipient, so clicks show who opened the link"
                />
              )}
            />
            {save.isError && <Alert severity="error">{errorMessage(save.error)}</Alert>}
          </Stack>
        </DialogContent>
        <DialogFooter label="Save" onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
