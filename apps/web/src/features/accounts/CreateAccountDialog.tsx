import { zodResolver } from '@hookform/resolvers/zod';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  createAccountSchema,
  messagingTypes,
  messagingVolumes,
  questionnaireIntegrations,
  type Account,
} from '@parley/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import type { z } from 'zod';
import { DialogFooter } from '../../components/DialogFooter';
import { countryMenuItems } from '../../components/countryMenuItems';
import { useApiClient } from '../../api/apiContext';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { accountsQueryKey } from '../../session/queries';

type Form = z.input<typeof createAccountSchema>;
type Valid = z.output<typeof createAccountSchema>;

const labels: Record<(typeof messagingTypes)[number], string> = {
  'one to one': 'One to one',
  'bulk/automated messaging': 'Bulk / automated messaging',
};

/** Create an account: the creator becomes its administrator, on the trial plan. */
export const CreateAccountDialog = ({
  onCreated,
  onCancel,
  cancelLabel = 'Cancel',
}: {
  onCreated: (account: Account) => void;
  onCancel: () => void;
  cancelLabel?: string;
}) => {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const { register, handleSubmit, control, formState } = useForm<Form, unknown, Valid>({
    resolver: zodResolver(createAccountSchema),
    defaultValues: {
      name: '',
      defaults: { country: 'US' },
      support: { address: '', phone: '', email: '', website: '' },
      questionnaire: { messagingVolume: '1-1,000', messagingType: [], desiredIntegrations: [], accountUseCases: '' },
      promoCode: '',
    },
  });
  const create = useMutation({
    mutationFn: async (body: Valid) => (await api.post<{ data: Account }>('/v1/accounts', body)).data,
    onSuccess: async (account) => {
      await queryClient.invalidateQueries({ queryKey: accountsQueryKey });
      onCreated(account);
    },
  });
  const submit: SubmitHandler<Valid> = (values) => {
    create.mutate(values);
  };
  const e = formState.errors;
  return (
    <Dialog open aria-labelledby="create-account-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id="create-account-title">Create Account</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label="Account Name" required {...register('name')} error={!!e.name} helperText={e.name?.message} />
            <TextField
              select
              label="Default Country"
              required
              defaultValue="US"
              {...register('defaults.country')}
              error={!!e.defaults?.country}
              helperText={e.defaults?.country?.message}
            >
              {countryMenuItems()}
            </TextField>
            <TextField
              select
              label="Messaging Volume (per month)"
              required
              defaultValue="1-1,000"
              {...register('questionnaire.messagingVolume')}
              error={!!e.questionnaire?.messagingVolume}
              helperText={e.questionnaire?.messagingVolume?.message}
            >
              {messagingVolumes.map((v) => (
                <MenuItem key={v} value={v}>
                  {v}
                </MenuItem>
              ))}
            </TextField>
            <Controller
              control={control}
              name="questionnaire.messagingType"
              render={({ field, fieldState }) => (
                <FormControl error={!!fieldState.error} required>
                  <FormLabel>Messaging Type</FormLabel>
                  <FormGroup row>
                    {messagingTypes.map((t) => (
                      <FormControlLabel
                        key={t}
                        label={labels[t]}
                        control={
                          <Checkbox
                            checked={field.value.includes(t)}
                            onChange={(_event, checked) => {
                              field.onChange(checked ? [...field.value, t] : field.value.filter((v) => v !== t));
                            }}
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                  {fieldState.error && <FormHelperText>{fieldState.error.message}</FormHelperText>}
                </FormControl>
              )}
            />
            <Controller
              control={control}
              name="questionnaire.desiredIntegrations"
              render={({ field }) => (
                <FormControl>
                  <FormLabel>Integrations you would like to use</FormLabel>
                  <FormGroup row>
                    {questionnaireIntegrations.map((i) => (
                      <FormControlLabel
                        key={i}
                        label={i}
                        control={
                          <Checkbox
                            checked={(field.value ?? []).includes(i)}
                            onChange={(_event, checked) => {
                              const value = field.value ?? [];
                              field.onChange(checked ? [...value, i] : value.filter((v) => v !== i));
                            }}
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                </FormControl>
              )}
            />
            <TextField label="How will you use Parley?" multiline minRows={2} {...register('questionnaire.accountUseCases')} />
            <TextField label="Business Address" required {...register('support.address')} error={!!e.support?.address} helperText={e.support?.address?.message} />
            <TextField label="Business Phone" required type="tel" {...register('support.phone')} error={!!e.support?.phone} helperText={e.support?.phone?.message} />
            <TextField label="Business Email" required type="email" {...register('support.email')} error={!!e.support?.email} helperText={e.support?.email?.message} />
            <TextField label="Website" {...register('support.website')} error={!!e.support?.website} helperText={e.support?.website?.message} />
            <TextField label="Promo Code" {...register('promoCode')} />
          </Stack>
          {create.isError && <ErrorAlert message={errorMessage(create.error)} />}
        </DialogContent>
        <DialogFooter label="Create" onCancel={onCancel} cancelLabel={cancelLabel} pending={create.isPending} />
      </form>
    </Dialog>
  );
};
