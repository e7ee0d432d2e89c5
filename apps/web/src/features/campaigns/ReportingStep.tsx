import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  CAMPAIGN_REPORTING_DELAY_MAX,
  campaignReportingUnitLabels,
  campaignReportingUnits,
  campaignReportingWhenLabels,
  campaignReportingWhens,
  type CampaignReportingUnit,
  type CampaignReportingWhen,
} from '@parley/shared';
import type { StepProps } from './stepProps';

/** Reporting: off, or a report e-mailed `delay` `unit` after an execution to addresses separated by semicolons. */
export const ReportingStep = ({ draft, onChange, errors, disabled }: StepProps) => {
  const reporting = draft.reporting;
  const set = (patch: Partial<typeof reporting>): void => {
    onChange({ reporting: { ...reporting, ...patch } });
  };
  const error = (field: string): string | undefined => errors[`reporting.${field}`];
  return (
    <Stack spacing={2}>
      <FormControlLabel
        control={<Switch checked={draft.reportingOn} onChange={(e) => { onChange({ reportingOn: e.target.checked }); }} disabled={disabled} />}
        label="E-mail a report of each execution"
      />
      {draft.reportingOn ? (
        <>
          <TextField
            select
            label="When"
            required
            value={reporting.when}
            disabled={disabled}
            onChange={(e) => { set({ when: e.target.value as CampaignReportingWhen }); }}
            error={error('when') !== undefined}
            helperText={error('when')}
          >
            {campaignReportingWhens.map((w) => (
              <MenuItem key={w} value={w}>
                {campaignReportingWhenLabels[w]}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction="row" spacing={1}>
            <TextField
              label="Delay"
              required
              value={reporting.delay}
              disabled={disabled}
              onChange={(e) => { set({ delay: e.target.value }); }}
              error={error('delay') !== undefined}
              helperText={error('delay') ?? `A whole number up to ${String(CAMPAIGN_REPORTING_DELAY_MAX)}`}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              sx={{ flex: 1 }}
            />
            <TextField
              select
              label="Unit"
              required
              value={reporting.unit}
              disabled={disabled}
              onChange={(e) => { set({ unit: e.target.value as CampaignReportingUnit }); }}
              error={error('unit') !== undefined}
              helperText={error('unit')}
              sx={{ minWidth: 140 }}
            >
              {campaignReportingUnits.map((u) => (
                <MenuItem key={u} value={u}>
                  {campaignReportingUnitLabels[u]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <TextField
            label="Destinations"
            required
            value={reporting.destination}
            disabled={disabled}
            onChange={(e) => { set({ destination: e.target.value }); }}
            error={error('destination') !== undefined}
            helperText={error('destination') ?? 'E-mail addresses separated by semicolons'}
          />
        </>
      ) : (
        <Typography color="text.secondary">No report is sent.</Typography>
      )}
    </Stack>
  );
};
