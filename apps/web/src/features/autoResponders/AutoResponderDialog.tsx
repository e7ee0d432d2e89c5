import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  AUTO_RESPONDER_DIALOG_TITLE,
  AUTO_RESPONDER_MATCH_MAX,
  AUTO_RESPONDER_SAVE_FAILED_MESSAGE,
  autoResponderKind,
  saveAutoResponderSchema,
  type AutoResponder,
  type SaveAutoResponder,
  type SaveAutoResponderInput,
} from '@parley/shared';
import { useId, useMemo } from 'react';
import { Controller, useForm, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { ApiError, errorMessage } from '../../api/client';
import { MessageEditor } from '../../components/messageEditor/MessageEditor';
import { useSnackbar } from '../../components/snackbarContext';
import { useAccount } from '../../session/queries';
import { useAttributeNames } from '../contacts';
import { saveErrorsOf } from './fieldErrors';
import { useSaveAutoResponder } from './queries';

interface AutoResponderDialogProps {
  accountId: string;
  /** The responder to edit; null to add one. */
  responder: AutoResponder | null;
  onClose: () => void;
}

const matchHelp = {
  Simple: 'A word or phrase, matched as whole words and ignoring case: "price" answers "What\'s the price?", not "priceless".',
  Advanced: 'A regular expression (RE2 syntax) found anywhere in the message, ignoring case unless it starts with (?-i).',
} as const;

/**
 * The 'Auto Responder' dialog: the match (Simple or Advanced), the response in the message editor (tokens,
 * segments). The form checks what it can; the server checks Advanced expressions, and its messages land on
 * their fields.
 */
export const AutoResponderDialog = ({ accountId, responder, onClose }: AutoResponderDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const account = useAccount(accountId);
  const attributes = useAttributeNames(accountId);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const save = useSaveAutoResponder(accountId, responder?.id ?? null);
  const { register, control, handleSubmit, formState, setError, watch } = useForm<SaveAutoResponderInput, unknown, SaveAutoResponder>({
    resolver: zodResolver(saveAutoResponderSchema),
    defaultValues: { match: responder?.match ?? '', response: responder?.response ?? '', advanced: responder?.advanced ?? false },
  });
  const kind = autoResponderKind(watch('advanced') ?? false);
  const formError = save.error instanceof ApiError ? saveErrorsOf(save.error).form : save.isError ? errorMessage(save.error) : null;

  const submit: SubmitHandler<SaveAutoResponder> = (values) => {
    save.mutate(values, {
      onSuccess: () => {
        snackbar.show(responder === null ? 'Auto responder added' : 'Auto responder saved');
        onClose();
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        for (const [field, message] of Object.entries(saveErrorsOf(error).fields)) {
          setError(field as keyof SaveAutoResponderInput, { type: 'server', message });
        }
      },
    });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{AUTO_RESPONDER_DIALOG_TITLE}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Controller
              control={control}
              name="advanced"
              render={({ field }) => (
                <FormControl>
                  <FormLabel id={`${titleId}-kind`}>Match Type</FormLabel>
                  <RadioGroup
                    row
                    aria-labelledby={`${titleId}-kind`}
                    value={field.value === true ? 'Advanced' : 'Simple'}
                    onChange={(event) => {
                      field.onChange(event.target.value === 'Advanced');
                    }}
                  >
                    <FormControlLabel value="Simple" control={<Radio />} label="Simple" disabled={save.isPending} />
                    <FormControlLabel value="Advanced" control={<Radio />} label="Advanced" disabled={save.isPending} />
                  </RadioGroup>
                </FormControl>
              )}
            />
            <TextField
              label="Match"
              required
              fullWidth
              autoFocus
              disabled={save.isPending}
              {...register('match')}
              error={!!formState.errors.match}
              helperText={formState.errors.match?.message ?? matchHelp[kind]}
              slotProps={{
                htmlInput: { maxLength: AUTO_RESPONDER_MATCH_MAX, spellCheck: kind === 'Simple' },
                input: kind === 'Advanced' ? { sx: { fontFamily: 'monospace' } } : {},
              }}
            />
            <Controller
              control={control}
              name="response"
              render={({ field, fieldState }) => (
                <FormControl component="fieldset" error={fieldState.invalid} required>
                  <FormLabel component="legend" sx={{ mb: 1 }}>
                    Response
                  </FormLabel>
                  <MessageEditor
                    accountId={accountId}
                    value={field.value}
                    onChange={field.onChange}
                    attributeNames={attributeNames}
                    pricing={account.data?.plan.pricing ?? null}
                    recipients={[]}
                    disabled={save.isPending}
                  />
                  <FormHelperText>
                    {fieldState.error?.message ?? 'Sent as an ordinary message: charged like any other, tokens filled in for the contact.'}
                  </FormHelperText>
                </FormControl>
              )}
            />
            {formError !== null && (
              <Alert severity="error" variant="outlined">
                <AlertTitle>{AUTO_RESPONDER_SAVE_FAILED_MESSAGE}</AlertTitle>
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
