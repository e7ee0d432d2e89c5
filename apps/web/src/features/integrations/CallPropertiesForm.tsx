import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { CALLRAIL_DEFAULT_PROPERTIES, callRailPropertiesSchema, changedProperties, type CallRailProperties } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTemplates } from '../templates';
import { useSenderNumbers } from './emailQueries';
import { useSaveProperties } from './queries';

/** The call integrations: CallRail, AirCall and Cradle share the text-back properties (AirCall adds one). */
export type CallIntegrationKind = 'callrail' | 'aircall' | 'cradle';

const propertiesOf = ({ recordTextBacks: _aircallOnly, ...properties }: Record<string, unknown>): CallRailProperties => {
  const parsed = callRailPropertiesSchema.safeParse({ ...CALLRAIL_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : CALLRAIL_DEFAULT_PROPERTIES;
};

const numberHelp: Readonly<Record<CallIntegrationKind, string>> = {
  callrail: 'Text-backs go from this number',
  aircall: 'For AirCall numbers that map to none above; text-backs go from the number a call is filed under',
  cradle: "For calls to a number Parley does not have; text-backs go from the number a call is filed under",
};

/** AirCall's own property: the text-back shown on the AirCall call (on unless turned off). */
const recordTextBacksOf = (kind: CallIntegrationKind, properties: Record<string, unknown>): Record<string, boolean> =>
  kind === 'aircall' ? { recordTextBacks: properties.recordTextBacks !== false } : {};

/** The missed-call text-back (on or off, template, window) and the number calls are filed under; only the changes are sent. */
export const CallPropertiesForm = ({ accountId, kind, properties, readOnly }: { accountId: string; kind: CallIntegrationKind; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const [current, setCurrent] = useState<CallRailProperties>(initial);
  const [hours, setHours] = useState(String(initial.textBackWindowHours));
  const [extra, setExtra] = useState(recordTextBacksOf(kind, properties));
  const numbers = useSenderNumbers(accountId);
  const templates = useTemplates(accountId, 'SMS');
  const save = useSaveProperties(accountId, kind);
  const wanted = { ...current, textBackWindowHours: Number(hours) };
  const checked = callRailPropertiesSchema.safeParse(wanted);
  const hoursError = checked.success ? undefined : checked.error.issues.find((i) => i.path[0] === 'textBackWindowHours')?.message;
  const changed = changedProperties({ ...initial, ...recordTextBacksOf(kind, properties) }, { ...wanted, ...extra });
  const set = (patch: Partial<CallRailProperties>): void => {
    setCurrent((before) => ({ ...before, ...patch }));
  };
  return (
    <form noValidate aria-label="Properties" onSubmit={(event) => { event.preventDefault(); if (checked.success) save.mutate(changed); }}>
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <Typography variant="h2">Properties</Typography>
        {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        <FormControlLabel
          control={<Switch checked={current.textBackEnabled} disabled={readOnly} onChange={(event) => { set({ textBackEnabled: event.target.checked }); }} />}
          label="Text back missed calls"
        />
        <TextField select label="Text-back template" disabled={readOnly} value={current.textBackTemplateId} onChange={(event) => { set({ textBackTemplateId: event.target.value }); }} slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}>
          <MenuItem value="">None</MenuItem>
          {(templates.data?.data ?? []).map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Once per caller every (hours)" type="number" disabled={readOnly} value={hours} onChange={(event) => { setHours(event.target.value); }} error={hoursError !== undefined} helperText={hoursError} />
        {extra.recordTextBacks !== undefined && (
          <FormControlLabel
            control={<Switch checked={extra.recordTextBacks} disabled={readOnly} onChange={(event) => { setExtra({ recordTextBacks: event.target.checked }); }} />}
            label="Show text-backs on the AirCall call"
          />
        )}
        <TextField select label="Calls go to the conversation on" disabled={readOnly} value={current.callNumberId} onChange={(event) => { set({ callNumberId: event.target.value }); }} slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }} helperText={numberHelp[kind]}>
          <MenuItem value="">The account&apos;s first number</MenuItem>
          {(numbers.data ?? []).filter((n) => n.status === 'active').map((n) => (
            <MenuItem key={n.id} value={n.id}>
              {n.name === '' ? n.number : `${n.name} (${n.number})`}
            </MenuItem>
          ))}
        </TextField>
        {!readOnly && (
          <Button type="submit" variant="outlined" disabled={Object.keys(changed).length === 0 || !checked.success || save.isPending} sx={{ alignSelf: 'flex-start' }}>
            Save
          </Button>
        )}
      </Stack>
    </form>
  );
};
