import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { TagsField } from '../contacts';
import { AttributeFilters } from './AttributeFilters';
import { ContactsField, ListsField } from './ContactFilterFields';
import type { StepProps } from './stepProps';
import { errorAt } from './wizardState';

/**
 * Select Contacts: every kind given must hold (tags, attribute comparisons, lists, chosen contacts); none at
 * all is every contact of the account. Blocked and opted-out contacts are always left out.
 */
export const ContactsStep = ({ accountId, draft, onChange, errors, disabled }: StepProps) => {
  const filters = draft.filters;
  const setFilters = (patch: Partial<typeof filters>): void => {
    onChange({ filters: { ...filters, ...patch } });
  };
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">
        A contact gets the message when it matches everything chosen here. Choose nothing to text every contact. Blocked and
        opted-out contacts are always left out.
      </Typography>
      <TagsField
        accountId={accountId}
        value={filters.tags}
        onChange={(tags) => { setFilters({ tags }); }}
        disabled={disabled}
        error={errorAt(errors, 'filters.tags')}
      />
      <AttributeFilters
        accountId={accountId}
        value={filters.attributes}
        onChange={(attributes) => { setFilters({ attributes }); }}
        disabled={disabled}
        error={errorAt(errors, 'filters.attributes')}
      />
      <ListsField
        accountId={accountId}
        value={filters.lists}
        onChange={(lists) => { setFilters({ lists }); }}
        disabled={disabled}
        error={errorAt(errors, 'filters.lists')}
      />
      <ContactsField
        accountId={accountId}
        value={filters.contacts}
        onChange={(contacts) => { setFilters({ contacts }); }}
        disabled={disabled}
        error={errorAt(errors, 'filters.contacts')}
      />
    </Stack>
  );
};
