import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { campaignScheduleSchema, describeSchedule, nextExecution } from '@parley/shared';
import { useEffect, useMemo, useState } from 'react';
import type { StepProps } from './stepProps';
import { scheduleBody, todayLocal, type ScheduleDraft, type ScheduleFrequency } from './wizardState';

const frequencyLabels: Readonly<Record<ScheduleFrequency, string>> = {
  O: 'Once',
  D: 'Daily',
  M: 'Monthly',
  W: 'Days of the Week',
  C: 'Cron',
};
const frequencies = Object.keys(frequencyLabels) as ScheduleFrequency[];
const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const daysOfMonth = Array.from({ length: 28 }, (_v, i) => i + 1);

const zones = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
};

/** The schedule in words and its next execution, or what is wrong with it, recomputed as it changes. */
function scheduleSummary(schedule: ScheduleDraft, now: Date): { ok: true; text: string } | { ok: false } {
  const parsed = campaignScheduleSchema.safeParse(scheduleBody(schedule));
  if (!parsed.success) return { ok: false };
  const next = nextExecution(parsed.data, now);
  const when = next === null ? 'It has no execution in the future.' : `Next execution: ${next.toLocaleString()}.`;
  return { ok: true, text: `${describeSchedule(parsed.data)}. ${when}` };
}

/** Schedule: once, daily, monthly, days of the week or cron, at a time of a time zone (the browser's by default). */
export const ScheduleStep = ({ draft, onChange, errors, disabled }: StepProps) => {
  const schedule = draft.schedule;
  const set = (patch: Partial<ScheduleDraft>): void => {
    onChange({ schedule: { ...schedule, ...patch } });
  };
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    // The next execution moves with the clock.
    const timer = window.setInterval(() => { setNow(new Date()); }, 30_000);
    return () => { window.clearInterval(timer); };
  }, []);
  const summary = useMemo(() => scheduleSummary(schedule, now), [schedule, now]);
  const zoneOptions = useMemo(zones, []);
  const error = (field: string): string | undefined => errors[`schedule.${field}`];
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Frequency"
        required
        value={schedule.frequency}
        disabled={disabled}
        onChange={(e) => { set({ frequency: e.target.value as ScheduleFrequency }); }}
        error={error('frequency') !== undefined}
        helperText={error('frequency')}
      >
        {frequencies.map((f) => (
          <MenuItem key={f} value={f}>
            {frequencyLabels[f]}
          </MenuItem>
        ))}
      </TextField>
      {schedule.frequency === 'O' && (
        <TextField
          type="date"
          label="Date"
          required
          value={schedule.date}
          disabled={disabled}
          onChange={(e) => { set({ date: e.target.value }); }}
          error={error('date') !== undefined}
          helperText={error('date')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: todayLocal() } }}
        />
      )}
      {schedule.frequency === 'M' && (
        <TextField
          select
          label="Day of Month"
          required
          value={schedule.dayOfMonth}
          disabled={disabled}
          onChange={(e) => { set({ dayOfMonth: Number(e.target.value) }); }}
          error={error('dayOfMonth') !== undefined}
          helperText={error('dayOfMonth')}
        >
          {daysOfMonth.map((d) => (
            <MenuItem key={d} value={d}>
              {d}
            </MenuItem>
          ))}
        </TextField>
      )}
      {schedule.frequency === 'W' && (
        <FormControl required error={error('days') !== undefined} component="fieldset">
          <FormLabel component="legend">Days</FormLabel>
          <FormGroup row>
            {weekdays.map((name, day) => (
              <FormControlLabel
                key={name}
                label={name}
                disabled={disabled}
                control={
                  <Checkbox
                    checked={schedule.days.includes(day)}
                    onChange={(e) => {
                      set({ days: e.target.checked ? [...schedule.days, day] : schedule.days.filter((d) => d !== day) });
                    }}
                  />
                }
              />
            ))}
          </FormGroup>
          {error('days') !== undefined && <FormHelperText>{error('days')}</FormHelperText>}
        </FormControl>
      )}
      {schedule.frequency === 'C' ? (
        <TextField
          label="Cron"
          required
          value={schedule.cron}
          disabled={disabled}
          onChange={(e) => { set({ cron: e.target.value }); }}
          error={error('cron') !== undefined}
          helperText={error('cron') ?? 'minute hour day-of-month month day-of-week, optionally followed by a year (0 9 * * 1-5).'}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      ) : (
        <TextField
          type="time"
          label="Time"
          required
          value={schedule.time}
          disabled={disabled}
          onChange={(e) => { set({ time: e.target.value }); }}
          error={error('time') !== undefined}
          helperText={error('time')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      )}
      <Autocomplete
        options={zoneOptions}
        value={schedule.timezone}
        disableClearable
        onChange={(_e, timezone) => { set({ timezone }); }}
        disabled={disabled}
        renderInput={(params) => (
          <TextField {...params} label="Time Zone" required error={error('timezone') !== undefined} helperText={error('timezone')} />
        )}
      />
      {summary.ok && (
        <Alert severity="info" variant="outlined" aria-live="polite">
          {summary.text}
        </Alert>
      )}
    </Stack>
  );
};
