import AddOutlined from '@mui/icons-material/AddOutlined';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SIMULATOR_ERROR_CODES_MAX, SIMULATOR_LATENCY_MAX_MS, SIMULATOR_RATE_MAX, type SimulatorSettings } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { ErrorCodeRow } from './ErrorCodeRow';
import { useSaveSimulatorSettings, useSimulatorSettings } from './queries';
import { formFromSettings, percent, settingsFromForm, type SettingsForm } from './simulatorView';

interface SettingsPanelProps {
  accountId: string;
  /** Administrators change the settings; everyone else reads them. */
  canManage: boolean;
}

/** The simulated network's settings: latency, failure rate, error codes, messages per second, seed. */
export const SettingsPanel = ({ accountId, canManage }: SettingsPanelProps) => {
  const settings = useSimulatorSettings(accountId);
  return (
    <Accordion variant="outlined" disableGutters sx={{ mb: 3 }}>
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="simulator-settings" id="simulator-settings-title">
        <Box>
          <Typography variant="subtitle1" component="h2">
            Network settings
          </Typography>
          {settings.data && (
            <Typography variant="caption" color="text.secondary">
              {`${String(settings.data.latencyMs)} ms latency · ${percent(settings.data.failureRate)} failures · ${String(settings.data.messagesPerSecond)} messages per second per number · seed ${String(settings.data.seed)}`}
            </Typography>
          )}
        </Box>
      </AccordionSummary>
      <AccordionDetails id="simulator-settings">
        {settings.isError && <ErrorAlert message={errorMessage(settings.error)} onRetry={() => void settings.refetch()} />}
        {settings.data && <SettingsEditor key={settings.data.updated.at} accountId={accountId} settings={settings.data} canManage={canManage} />}
      </AccordionDetails>
    </Accordion>
  );
};

const SettingsEditor = ({ accountId, settings, canManage }: SettingsPanelProps & { settings: SimulatorSettings }) => {
  const [form, setForm] = useState<SettingsForm>(() => formFromSettings(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveSimulatorSettings(accountId);
  const snackbar = useSnackbar();
  const disabled = !canManage || save.isPending;

  const field = (name: 'latencyMs' | 'failureRate' | 'messagesPerSecond' | 'seed', label: string, helper: string) => (
    <TextField
      label={label}
      size="small"
      value={form[name]}
      disabled={disabled}
      onChange={(event) => {
        setForm({ ...form, [name]: event.target.value });
      }}
      error={errors[name] !== undefined}
      helperText={errors[name] ?? helper}
      slotProps={{ htmlInput: { inputMode: name === 'failureRate' ? 'decimal' : 'numeric' } }}
      sx={{ flex: '1 1 180px' }}
    />
  );

  const setCode = (index: number, change: Partial<SettingsForm['errorCodes'][number]>) => {
    setForm({ ...form, errorCodes: form.errorCodes.map((code, i) => (i === index ? { ...code, ...change } : code)) });
  };

  const submit = () => {
    const result = settingsFromForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    save.mutate(result.value, {
      onSuccess: () => {
        snackbar.show('Simulator settings saved');
      },
    });
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {!canManage && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Only administrators may change the simulator&apos;s settings.
        </Typography>
      )}
      <Stack direction="row" useFlexGap spacing={2} sx={{ flexWrap: 'wrap', mb: 2 }}>
        {field('latencyMs', 'Latency (ms)', `Before the receipt, 0 to ${String(SIMULATOR_LATENCY_MAX_MS)}`)}
        {field('failureRate', 'Failure rate', '0 to 1, e.g. 0.05 for 5%')}
        {field('messagesPerSecond', 'Messages per second', `Per business number, 1 to ${String(SIMULATOR_RATE_MAX)}`)}
        {field('seed', 'Seed', 'The same seed repeats a run')}
      </Stack>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        Error codes
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        A failing message gets one of these, each as likely as the others.
      </Typography>
      <Stack spacing={1} sx={{ mb: 1 }}>
        {form.errorCodes.map((code, index) => (
          <ErrorCodeRow
            key={index}
            code={code}
            codeError={errors[`errorCodes.${String(index)}.code`]}
            textError={errors[`errorCodes.${String(index)}.text`]}
            disabled={disabled}
            canRemove={canManage}
            onChange={(change) => {
              setCode(index, change);
            }}
            onRemove={() => {
              setForm({ ...form, errorCodes: form.errorCodes.filter((_, i) => i !== index) });
            }}
          />
        ))}
      </Stack>
      {errors.errorCodes !== undefined && (
        <Typography variant="caption" color="error" sx={{ display: 'block', mb: 1 }}>
          {errors.errorCodes}
        </Typography>
      )}
      {canManage && (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button
            startIcon={<AddOutlined />}
            disabled={disabled || form.errorCodes.length >= SIMULATOR_ERROR_CODES_MAX}
            onClick={() => {
              setForm({ ...form, errorCodes: [...form.errorCodes, { code: '', text: '', stage: 'delivery' }] });
            }}
          >
            Add error code
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save
          </Button>
        </Stack>
      )}
      {save.isError && (
        <Alert severity="error" variant="outlined" sx={{ mt: 2 }}>
          {errorMessage(save.error)}
        </Alert>
      )}
    </Box>
  );
};
