import Alert from '@mui/material/Alert';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import {
  attributeComparatorLabels,
  campaignMessagingTypeLabels,
  campaignReportingUnitLabels,
  campaignScheduleSchema,
  campaignTriggerLabels,
  describeSchedule,
  importFieldLabels,
  isImportField,
} from '@parley/shared';
import type { ReactNode } from 'react';
import { useGroups } from '../groups';
import { usePhoneNumbers } from '../phoneNumbers';
import { useListOptions } from '../contacts';
import type { StepProps } from './stepProps';
import { scheduleBody } from './wizardState';

/** Summary: the campaign as it will be saved. */
export const SummaryStep = ({ accountId, draft, errors }: StepProps) => {
  const groups = useGroups(accountId);
  const numbers = usePhoneNumbers(accountId);
  const lists = useListOptions(accountId);
  const group = groups.data?.data.find((g) => g.id === draft.group)?.name ?? numbers.data?.find((n) => n.id === draft.group)?.number ?? '';
  const schedule = campaignScheduleSchema.safeParse(scheduleBody(draft.schedule));
  const f = draft.filters;
  const audience = [
    f.tags.length > 0 ? `tags ${f.tags.join(', ')}` : null,
    ...f.attributes.map((a) => `${a.attribute} ${attributeComparatorLabels[a.comparator]} "${a.value}"`),
    f.lists.length > 0 ? `lists ${f.lists.map((id) => lists.data?.find((l) => l.id === id)?.name ?? id).join(', ')}` : null,
    f.contacts.length > 0 ? `${String(f.contacts.length)} chosen contact${f.contacts.length === 1 ? '' : 's'}` : null,
  ].filter((part): part is string => part !== null);
  const rows: [string, ReactNode][] = [
    ['Name', draft.name],
    ['Description', draft.description],
    ['Type', campaignTriggerLabels[draft.trigger]],
    ['Messaging Type', draft.messagingType === '' ? '' : campaignMessagingTypeLabels[draft.messagingType]],
    ['Outbound Group', group],
  ];
  if (draft.trigger === 'S') rows.push(['Schedule', schedule.success ? describeSchedule(schedule.data) : '']);
  if (draft.trigger === 'FU') {
    rows.push(['Field Mapping', draft.fieldMappings.map((m) => `${m.column} → ${isImportField(m.field) ? importFieldLabels[m.field] : m.field}`).join('; ')]);
  } else {
    rows.push(['Contacts', audience.length === 0 ? 'Every contact' : audience.join('; ')]);
  }
  rows.push(['Message', <span style={{ whiteSpace: 'pre-wrap' }}>{draft.template}</span>]);
  if (draft.media.length > 0) rows.push(['Attachments', draft.media.map((m) => m.filename || m.url).join(', ')]);
  rows.push([
    'Reporting',
    draft.reportingOn
      ? `${draft.reporting.delay} ${campaignReportingUnitLabels[draft.reporting.unit].toLowerCase()} to ${draft.reporting.destination}`
      : 'Off',
  ]);
  const problems = Object.keys(errors).length;
  return (
    <>
      {problems > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Some steps need attention before the campaign can be saved.
        </Alert>
      )}
      <Table size="small" aria-label="Summary">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row" sx={{ width: 180, fontWeight: 500 }}>
                {label}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
};
