import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  CAMPAIGN_DESCRIPTION_MAX,
  CAMPAIGN_NAME_MAX,
  campaignMessagingTypeLabels,
  campaignMessagingTypes,
  type CampaignMessagingType,
} from '@parley/shared';
import { useGroups, phoneNumberLabel } from '../groups';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { usePhoneNumbers } from '../phoneNumbers';
import type { StepProps } from './stepProps';
import { errorAt } from './wizardState';

/** General: name, description, messaging type and the outbound group (a group or a number of the account). */
export const GeneralStep = ({ accountId, draft, onChange, errors, disabled }: StepProps) => {
  const groups = useGroups(accountId);
  const numbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  const groupError = errorAt(errors, 'phoneNumberFilter');
  const groupItems = groups.data?.data ?? [];
  const numberItems = numbers.data ?? [];
  return (
    <Stack spacing={2}>
      <TextField
        label="Name"
        required
        autoFocus
        value={draft.name}
        disabled={disabled}
        onChange={(e) => { onChange({ name: e.target.value }); }}
        error={errors.name !== undefined}
        helperText={errors.name}
        slotProps={{ htmlInput: { maxLength: CAMPAIGN_NAME_MAX } }}
      />
      <TextField
        label="Description"
        multiline
        minRows={2}
        value={draft.description}
        disabled={disabled}
        onChange={(e) => { onChange({ description: e.target.value }); }}
        error={errors.description !== undefined}
        helperText={errors.description}
        slotProps={{ htmlInput: { maxLength: CAMPAIGN_DESCRIPTION_MAX } }}
      />
      <TextField
        select
        label="Messaging Type"
        required
        value={draft.messagingType}
        disabled={disabled}
        onChange={(e) => { onChange({ messagingType: e.target.value as CampaignMessagingType }); }}
        error={errors.messagingType !== undefined}
        helperText={errors.messagingType}
      >
        {campaignMessagingTypes.map((type) => (
          <MenuItem key={type} value={type}>
            {campaignMessagingTypeLabels[type]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Outbound Group"
        required
        value={draft.group}
        disabled={disabled}
        onChange={(e) => { onChange({ group: e.target.value }); }}
        error={groupError !== undefined}
        helperText={groupError ?? 'Messages go out from a number of this group, or from this number.'}
      >
        {groupItems.length > 0 && <ListSubheader>Groups</ListSubheader>}
        {groupItems.map((group) => (
          <MenuItem key={group.id} value={group.id}>
            {group.name}
          </MenuItem>
        ))}
        {numberItems.length > 0 && <ListSubheader>Phone Numbers</ListSubheader>}
        {numberItems.map((number) => (
          <MenuItem key={number.id} value={number.id}>
            {phoneNumberLabel(number, display.phone)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
};
