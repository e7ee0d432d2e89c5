import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { changedProperties, GOOGLE_CALENDAR_DEFAULT_PROPERTIES, googleCalendarPropertiesSchema, type GoogleCalendarProperties } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTemplates } from '../templates';
import { GoogleCalendarScheduleFields } from './GoogleCalendarScheduleFields';
import { useGoogleCalendars } from './googleCalendarQueries';
import { useSaveProperties } from './queries';

const propertiesOf = (properties: Record<string, unknown>): GoogleCalendarProperties => {
  const parsed = googleCalendarPropertiesSchema.safeParse({ ...GOOGLE_CALENDAR_DEFAULT_PROPERTIES, ...properties });
  return parsed.success ? parsed.data : GOOGLE_CALENDAR_DEFAULT_PROPERTIES;
};

/** The browser's zone, proposed while the connection still has the default one. */
const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Calendar, schedule, template and the C/CANCEL switch of the appointment reminders; only the changes are sent. */
export const GoogleCalendarPropertiesForm = ({ accountId, properties, readOnly }: { accountId: string; properties: Record<string, unknown>; readOnly: boolean }) => {
  const initial = propertiesOf(properties);
  const [current, setCurrent] = useState<GoogleCalendarProperties>(() => (properties.timezone === undefined && !readOnly ? { ...initial, timezone: browserZone() } : initial));
  const [lookForward, setLookForward] = useState(String(initial.lookForward));
  const calendars = useGoogleCalendars(accountId, true);
  const templates = useTemplates(accountId, 'SMS');
  const save = useSaveProperties(accountId, 'googlecalendar');
  const wanted = { ...current, lookForward: Number(lookForward) };
  const checked = googleCalendarPropertiesSchema.safeParse(wanted);
  const errors: Partial<Record<keyof GoogleCalendarProperties, string>> = {};
  if (!checked.success) for (const issue of checked.error.issues) errors[issue.path[0] as keyof GoogleCalendarProperties] ??= issue.message;
  const changed = changedProperties(initial, wanted);
  // The answer re-keys this form with the saved properties: the confirmation comes from the call, not the form's callbacks.
  const set = (patch: Partial<GoogleCalendarProperties>): void => {
    setCurrent((before) => ({ ...before, ...patch }));
  };
  return (
    <form noValidate aria-label="Properties" onSubmit={(event) => { event.preventDefault(); if (checked.success) save.mutate(changed); }}>
      <Stack spacing={2} sx={{ maxWidth: 480 }}>
        <Typography variant="h2">Appointment reminders</Typography>
        {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
        {calendars.isError && <ErrorAlert message={errorMessage(calendars.error)} onRetry={() => void calendars.refetch()} />}
        <TextField select label="Calendar" disabled={readOnly} value={current.calendarId} onChange={(event) => { set({ calendarId: event.target.value }); }} slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}>
          <MenuItem value="">Choose a calendar</MenuItem>
          {current.calendarId !== '' && !(calendars.data ?? []).some((c) => c.id === current.calendarId) && <MenuItem value={current.calendarId}>{current.calendarId}</MenuItem>}
          {(calendars.data ?? []).map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.primary ? `${c.summary} (primary)` : c.summary}
            </MenuItem>
          ))}
        </TextField>
        <GoogleCalendarScheduleFields current={current} lookForward={lookForward} setLookForward={setLookForward} set={set} errors={errors} readOnly={readOnly} />
        <TextField select label="Template" disabled={readOnly} value={current.templateId} onChange={(event) => { set({ templateId: event.target.value }); }} helperText="{{{eventTitle}}} and {{{eventStart}}} are filled with the event's" slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}>
          <MenuItem value="">None</MenuItem>
          {(templates.data?.data ?? []).map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Switch checked={current.cancelReplies} disabled={readOnly} onChange={(event) => { set({ cancelReplies: event.target.checked }); }} />}
          label="A reply of C or CANCEL declines the appointment"
        />
        {!readOnly && (
          <Button type="submit" variant="outlined" disabled={Object.keys(changed).length === 0 || !checked.success || save.isPending} sx={{ alignSelf: 'flex-start' }}>
            Save
          </Button>
        )}
      </Stack>
    </form>
  );
};
