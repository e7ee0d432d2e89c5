import AddOutlined from '@mui/icons-material/AddOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  attributeComparatorLabels,
  attributeComparators,
  campaignAttributeFilterSchema,
  type CampaignAttributeFilter,
  type Contact,
} from '@parley/shared';
import { useState } from 'react';
import { useContact } from '../conversations/inbox/queries';
import { useRecipientSearch } from '../messaging/sendMessageQueries';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { useAttributeNames, useListOptions } from '../contacts/contactsQueries';
import { TagsField } from '../contacts/TagsField';
import type { StepProps } from './stepProps';
import { errorAt } from './wizardState';

type Comparator = CampaignAttributeFilter['comparator'];

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

interface FieldProps<T> {
  accountId: string;
  value: T[];
  onChange: (value: T[]) => void;
  disabled: boolean;
  error: string | undefined;
}

/** 'attribute and comparator required to add'; the value may be empty. */
const AttributeFilters = ({ accountId, value, onChange, disabled, error }: FieldProps<CampaignAttributeFilter>) => {
  const names = useAttributeNames(accountId);
  const [attribute, setAttribute] = useState('');
  const [comparator, setComparator] = useState<Comparator | ''>('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<{ attribute?: string; comparator?: string; value?: string }>({});
  const add = (): void => {
    const parsed = campaignAttributeFilterSchema.safeParse({ attribute, comparator: comparator === '' ? undefined : comparator, value: text });
    if (!parsed.success) {
      const found: typeof problem = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (key === 'attribute' || key === 'comparator' || key === 'value') found[key] ??= issue.message;
      }
      setProblem(found);
      return;
    }
    setProblem({});
    onChange([...value, parsed.data]);
    setAttribute('');
    setComparator('');
    setText('');
  };
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">Attribute Filters</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Autocomplete<string, false, false, true>
          freeSolo
          options={names.data ?? []}
          inputValue={attribute}
          onInputChange={(_e, next) => { setAttribute(next); }}
          disabled={disabled}
          sx={{ minWidth: 200, flex: 1 }}
          renderInput={(params) => (
            <TextField {...params} label="Attribute" required error={problem.attribute !== undefined} helperText={problem.attribute} />
          )}
        />
        <TextField
          select
          label="Comparator"
          required
          value={comparator}
          disabled={disabled}
          onChange={(e) => { setComparator(e.target.value as Comparator); }}
          error={problem.comparator !== undefined}
          helperText={problem.comparator}
          sx={{ minWidth: 170 }}
        >
          {attributeComparators.map((c) => (
            <MenuItem key={c} value={c}>
              {attributeComparatorLabels[c]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Value"
          value={text}
          disabled={disabled}
          onChange={(e) => { setText(e.target.value); }}
          error={problem.value !== undefined}
          helperText={problem.value}
          sx={{ flex: 1 }}
        />
        <Button startIcon={<AddOutlined />} onClick={add} disabled={disabled} sx={{ mt: 1 }}>
          Add
        </Button>
      </Stack>
      {value.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {value.map((filter, index) => (
            <Chip
              key={`${filter.attribute}-${filter.comparator}-${filter.value}-${String(index)}`}
              label={`${filter.attribute} ${attributeComparatorLabels[filter.comparator]} "${filter.value}"`}
              onDelete={disabled ? undefined : () => { onChange(value.filter((_f, i) => i !== index)); }}
            />
          ))}
        </Stack>
      )}
      {error !== undefined && (
        <Typography color="error" variant="caption">
          {error}
        </Typography>
      )}
    </Stack>
  );
};

const ListsField = ({ accountId, value, onChange, disabled, error }: FieldProps<string>) => {
  const lists = useListOptions(accountId);
  const options = lists.data ?? [];
  const chosen = options.filter((l) => value.includes(l.id));
  // Lists beyond the ones offered stay chosen (the options are the 100 newest).
  const unseen = lists.isSuccess ? value.filter((id) => !options.some((l) => l.id === id)) : value;
  return (
    <Autocomplete
      multiple
      options={options}
      value={chosen}
      getOptionLabel={(list) => list.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, next) => { onChange([...unseen, ...next.map((l) => l.id)]); }}
      disabled={disabled}
      loading={lists.isPending}
      renderInput={(params) => (
        <TextField {...params} label="Lists" error={error !== undefined} helperText={error ?? 'On at least one of these lists (and not opted out of it).'} />
      )}
    />
  );
};

const ChosenContact = ({ accountId, id, onDelete }: { accountId: string; id: string; onDelete: (() => void) | undefined }) => {
  const contact = useContact(accountId, id);
  const display = usePhoneDisplay();
  return <Chip label={contact.data === undefined ? '…' : display.name(contact.data)} onDelete={onDelete} />;
};

const ContactsField = ({ accountId, value, onChange, disabled, error }: FieldProps<string>) => {
  const [q, setQ] = useState('');
  const search = useRecipientSearch(accountId, q.trim(), q.trim() !== '');
  const display = usePhoneDisplay();
  const options = (search.data ?? []).filter((c) => !value.includes(c.id));
  return (
    <Stack spacing={1}>
      <Autocomplete<Contact>
        options={options}
        value={null}
        inputValue={q}
        onInputChange={(_e, next, reason) => { if (reason !== 'reset') setQ(next); }}
        filterOptions={(o) => o}
        getOptionLabel={(c) => `${display.name(c)} ${display.phone(c.mobile.number)}`}
        onChange={(_e, contact) => {
          if (contact === null) return;
          onChange([...value, contact.id]);
          setQ('');
        }}
        disabled={disabled}
        loading={search.isFetching}
        noOptionsText={q.trim() === '' ? 'Type a name or number' : 'No contacts found'}
        renderInput={(params) => (
          <TextField {...params} label="Contacts" error={error !== undefined} helperText={error ?? 'Only these contacts (search by name or number).'} />
        )}
      />
      {value.length > 0 && (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {value.map((id) => (
            <ChosenContact key={id} accountId={accountId} id={id} onDelete={disabled ? undefined : () => { onChange(value.filter((c) => c !== id)); }} />
          ))}
        </Stack>
      )}
    </Stack>
  );
};
