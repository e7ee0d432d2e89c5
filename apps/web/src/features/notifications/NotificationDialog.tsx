import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import type { Notification, NotificationType, SaveNotification } from '@parley/shared';
import { useId } from 'react';
import { Controller, useForm, useWatch, type SubmitHandler } from 'react-hook-form';
import { ApiError, errorMessage } from '../../api/client';
import { DialogFooter } from '../../components/DialogFooter';
import { useSnackbar } from '../../components/snackbarContext';
import { useIsPhone } from '../../components/useIsPhone';
import { EventTypeFields } from './EventTypeFields';
import { saveErrorsOf } from './fieldErrors';
import { FilterFields } from './FilterFields';
import { formDefaults, notificationResolver, type NotificationFormValues } from './notificationForm';
import { typeLabels } from './NotificationCells';
import { notificationState } from './notificationStatus';
import { useSaveNotification } from './queries';
import type { FilterOptions } from './useFilterOptions';

interface NotificationDialogProps {
  accountId: string;
  /** The notification to edit; null to add one. */
  notification: Notification | null;
  filterOptions: FilterOptions;
  onClose: () => void;
  /** A new webhook's signing secret, to show once. */
  onCreatedSecret: (secret: string) => void;
  /** The only type this dialog adds (its choice is not shown); both when absent. */
  onlyType?: NotificationType;
}

const destinationHelp: Record<NotificationType, string> = {
  webhook: 'An http or https URL: each event is POSTed to it as JSON, signed with the webhook\'s secret.',
  email: 'The address each event is e-mailed to.',
};

const dialogTitle = (notification: Notification | null, onlyType: NotificationType | undefined): string => {
  const noun = onlyType === 'webhook' ? 'Webhook' : 'Notification';
  return `${notification === null ? 'Add' : 'Edit'} ${noun}`;
};

/**
 * The 'notification' dialog: type (kept once saved), destination, event flags, filters and whether it is on.
 * The form checks with the API's schema; what the server refuses lands on its field.
 */
export const NotificationDialog = ({ accountId, notification, filterOptions, onClose, onCreatedSecret, onlyType }: NotificationDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const phone = useIsPhone();
  const save = useSaveNotification(accountId, notification?.id ?? null);
  const { register, control, handleSubmit, formState, setError } = useForm<NotificationFormValues, unknown, SaveNotification>({
    resolver: notificationResolver,
    defaultValues: { ...formDefaults(notification), ...(onlyType === undefined || notification !== null ? {} : { type: onlyType }) },
  });
  const type = useWatch({ control, name: 'type' });
  const formError =
    formState.errors.root?.form?.message ??
    (save.error instanceof ApiError ? saveErrorsOf(save.error).form : save.isError ? errorMessage(save.error) : null);

  const submit: SubmitHandler<SaveNotification> = (body) => {
    save.mutate(body, {
      onSuccess: (saved) => {
        snackbar.show(notification === null ? 'Notification added' : 'Notification saved');
        onClose();
        if (saved.secret !== undefined) onCreatedSecret(saved.secret);
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        for (const [field, message] of Object.entries(saveErrorsOf(error).fields)) {
          setError(field as keyof NotificationFormValues, { type: 'server', message });
        }
      },
    });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{dialogTitle(notification, onlyType)}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {onlyType === undefined && <Controller
              control={control}
              name="type"
              render={({ field }) => (
                <FormControl>
                  <FormLabel id={`${titleId}-type`}>Type</FormLabel>
                  <RadioGroup row aria-labelledby={`${titleId}-type`} value={field.value} onChange={(event) => { field.onChange(event.target.value); }}>
                    {(['webhook', 'email'] as const).map((value) => (
                      <FormControlLabel key={value} value={value} label={typeLabels[value]} control={<Radio />} disabled={notification !== null || save.isPending} />
                    ))}
                  </RadioGroup>
                  {notification !== null && <FormHelperText>A notification keeps its type: to change it, remove it and add another.</FormHelperText>}
                </FormControl>
              )}
            />}
            <TextField
              label="Destination"
              required
              fullWidth
              autoFocus
              type={type === 'email' ? 'email' : 'url'}
              placeholder={type === 'email' ? 'alerts@example.com' : 'https://example.com/parley/events'}
              disabled={save.isPending}
              {...register('destination')}
              error={!!formState.errors.destination}
              helperText={formState.errors.destination?.message ?? destinationHelp[type]}
              slotProps={{ htmlInput: { maxLength: 2000, spellCheck: false } }}
            />
            <EventTypeFields control={control} disabled={save.isPending} />
            <Divider />
            <FilterFields control={control} options={filterOptions} disabled={save.isPending} />
            <Controller
              control={control}
              name="enabled"
              render={({ field }) => (
                <FormControlLabel
                  label="Enabled"
                  disabled={save.isPending}
                  control={<Switch checked={field.value} onChange={(event) => { field.onChange(event.target.checked); }} />}
                />
              )}
            />
            {notification !== null && notification.disabledReason !== undefined && (
              <Alert severity="info">{`${notificationState(notification).reason ?? ''} Turn it on again once the endpoint works.`}</Alert>
            )}
            {formError !== null && (
              <Alert severity="error" variant="outlined">
                {formError}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogFooter label="Save" onCancel={onClose} pending={save.isPending} />
      </form>
    </Dialog>
  );
};
