import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  saveTemplateSchema,
  TEMPLATE_NAME_MAX,
  TEMPLATE_SAVE_FAILED_TOAST,
  type SaveTemplate,
  type SaveTemplateInput,
  type Template,
  type TemplateType,
} from '@parley/shared';
import { useId, useMemo } from 'react';
import { Controller, useForm, useWatch, type SubmitHandler } from 'react-hook-form';
import { DialogFooter } from '../../components/DialogFooter';
import { ApiError, errorMessage } from '../../api/client';
import { AttachmentPicker } from '../../components/media/AttachmentPicker';
import { MessageEditor } from '../../components/messageEditor/MessageEditor';
import { estimateMessage } from '../../components/messageEditor/messageEstimate';
import { useSnackbar } from '../../components/snackbarContext';
import { useAccount } from '../../session/queries';
import { useAttributeNames, useListOptions } from '../contacts';
import { saveErrorsOf, type TemplateFormField } from './fieldErrors';
import { GsmFixAlert } from './GsmFixAlert';
import { gsmFixFor } from './gsmFix';
import { useFirstContact, useSaveTemplate } from './queries';
import { TemplateOptionFields } from './TemplateOptionFields';
import { sampleCaption, sampleRecipient } from './sampleContact';

interface TemplateDialogProps {
  accountId: string;
  /** The template to edit; null to add one of `type`. */
  template: Template | null;
  type: TemplateType;
  onClose: () => void;
}

const defaultsOf = (template: Template | null, type: TemplateType): SaveTemplateInput => ({
  name: template?.name ?? '',
  type: template?.type ?? type,
  template: template?.template ?? '',
  media: template?.media ?? [],
  private: template?.private ?? false,
  optInListId: template?.optInList?.id ?? null,
});

/**
 * Template create/update: name, type, the OptIn list, privacy, the text in the message editor and up to 5
 * attachments. The counts and price are those of the message the account's first contact (or a sample
 * contact) would get; characters forcing UCS-2 get a one-click GSM-7 replacement. A save the server refuses
 * shows the toast 'Unable to save template' and puts its messages on their fields.
 */
export const TemplateDialog = ({ accountId, template, type, onClose }: TemplateDialogProps) => {
  const titleId = useId();
  const snackbar = useSnackbar();
  const account = useAccount(accountId);
  const attributes = useAttributeNames(accountId);
  const lists = useListOptions(accountId);
  const firstContact = useFirstContact(accountId);
  const save = useSaveTemplate(accountId, template?.id ?? null);
  const attributeNames = useMemo(() => attributes.data ?? [], [attributes.data]);
  const pricing = account.data?.plan.pricing ?? null;
  const sample = useMemo(
    () => (firstContact.isSuccess ? sampleRecipient(firstContact.data, account.data?.defaults.country.code ?? 'US') : null),
    [firstContact.isSuccess, firstContact.data, account.data?.defaults.country.code],
  );
  const recipients = useMemo(() => (sample === null ? [] : [sample.contact]), [sample]);
  // The lists offered are the 100 newest; the template's own list stays offered even if older.
  const listOptions = useMemo(() => {
    const options = lists.data ?? [];
    const own = template?.optInList ?? null;
    return own === null || options.some((l) => l.id === own.id) ? options : [...options, own];
  }, [lists.data, template?.optInList]);

  const { register, control, handleSubmit, formState, setError, setValue } = useForm<SaveTemplateInput, unknown, SaveTemplate>({
    resolver: zodResolver(saveTemplateSchema),
    defaultValues: defaultsOf(template, type),
  });
  const [text, media] = useWatch({ control, name: ['template', 'media'] });
  const hasMedia = (media?.length ?? 0) > 0;
  const fix = useMemo(() => {
    const estimate = estimateMessage({ template: text ?? '', attributeNames, pricing, recipients, hasMedia });
    return gsmFixFor(text ?? '', estimate.nonGsmCharacters);
  }, [text, attributeNames, pricing, recipients, hasMedia]);
  const formError = save.error instanceof ApiError ? saveErrorsOf(save.error).form : save.isError ? errorMessage(save.error) : null;

  const submit: SubmitHandler<SaveTemplate> = (values) => {
    save.mutate(values, {
      onSuccess: () => {
        snackbar.show(template === null ? 'Template added' : 'Template saved');
        onClose();
      },
      onError: (error) => {
        snackbar.show(TEMPLATE_SAVE_FAILED_TOAST);
        if (!(error instanceof ApiError)) return;
        for (const [field, message] of Object.entries(saveErrorsOf(error).fields)) {
          setError(field as TemplateFormField, { type: 'server', message });
        }
      },
    });
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form noValidate onSubmit={(event) => void handleSubmit(submit)(event)}>
        <DialogTitle id={titleId}>{template === null ? 'Add Template' : 'Edit Template'}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Name"
              required
              fullWidth
              autoFocus
              disabled={save.isPending}
              {...register('name')}
              error={!!formState.errors.name}
              helperText={formState.errors.name?.message}
              slotProps={{ htmlInput: { maxLength: TEMPLATE_NAME_MAX } }}
            />
            <TemplateOptionFields
              control={control}
              setValue={setValue}
              disabled={save.isPending}
              lists={listOptions}
              listsPending={lists.isPending}
              noLists={listOptions.length === 0 && lists.isSuccess}
            />
            <Controller
              control={control}
              name="template"
              render={({ field, fieldState }) => (
                <FormControl error={fieldState.invalid}>
                  {sample !== null && (
                    <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                      {sampleCaption(sample, account.data?.defaults.country.code ?? null)}
                    </Typography>
                  )}
                  <MessageEditor
                    accountId={accountId}
                    value={field.value ?? ''}
                    onChange={field.onChange}
                    attributeNames={attributeNames}
                    pricing={pricing}
                    recipients={recipients}
                    hasMedia={hasMedia}
                    disabled={save.isPending}
                  />
                  {fieldState.error?.message !== undefined && <FormHelperText>{fieldState.error.message}</FormHelperText>}
                </FormControl>
              )}
            />
            {fix !== null && (
              <GsmFixAlert
                fix={fix}
                disabled={save.isPending}
                onApply={(fixed) => {
                  setValue('template', fixed, { shouldDirty: true, shouldValidate: formState.isSubmitted });
                }}
              />
            )}
            <Controller
              control={control}
              name="media"
              render={({ field, fieldState }) => (
                <FormControl error={fieldState.invalid}>
                  <AttachmentPicker
                    value={(field.value ?? []).map((m) => ({ ...m, filename: m.filename ?? '' }))}
                    onChange={field.onChange}
                    disabled={save.isPending}
                  />
                  {fieldState.error?.message !== undefined && <FormHelperText>{fieldState.error.message}</FormHelperText>}
                </FormControl>
              )}
            />
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
