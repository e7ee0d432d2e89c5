import TextField from '@mui/material/TextField';
import type { GoogleCalendarProperties } from '@parley/shared';

type Patch = (patch: Partial<GoogleCalendarProperties>) => void;

/** The schedule's fields: the cron, from, look forward and the time zone, each with its own message. */
export const GoogleCalendarScheduleFields = ({
  current,
  lookForward,
  setLookForward,
  set,
  errors,
  readOnly,
}: {
  current: GoogleCalendarProperties;
  lookForward: string;
  setLookForward: (value: string) => void;
  set: Patch;
  errors: Partial<Record<keyof GoogleCalendarProperties, string>>;
  readOnly: boolean;
}) => (
  <>
    <TextField
      label="Schedule"
      disabled={readOnly}
      value={current.schedule}
      onChange={(event) => { set({ schedule: event.target.value }); }}
      error={errors.schedule !== undefined}
      helperText={errors.schedule ?? 'Five fields: minute hour day-of-month month day-of-week, such as 0 8 * * 1-5'}
      slotProps={{ htmlInput: { spellCheck: false } }}
    />
    <TextField
      label="From"
      type="datetime-local"
      disabled={readOnly}
      value={current.from}
      onChange={(event) => { set({ from: event.target.value }); }}
      error={errors.from !== undefined}
      helperText={errors.from ?? 'No reminders run before this time'}
      slotProps={{ inputLabel: { shrink: true } }}
    />
    <TextField
      label="Look forward (hours)"
      type="number"
      disabled={readOnly}
      value={lookForward}
      onChange={(event) => { setLookForward(event.target.value); }}
      error={errors.lookForward !== undefined}
      helperText={errors.lookForward ?? 'Events starting within this many hours of a run are reminded'}
    />
    <TextField
      label="Time zone"
      disabled={readOnly}
      value={current.timezone}
      onChange={(event) => { set({ timezone: event.target.value }); }}
      error={errors.timezone !== undefined}
      helperText={errors.timezone ?? 'The schedule, From and the start time in the text use this zone'}
    />
  </>
);
