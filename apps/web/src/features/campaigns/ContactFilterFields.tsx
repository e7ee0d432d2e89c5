import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Contact } from '@parley/shared';
import { useState } from 'react';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { useListOptions } from '../contacts';
import { useContact } from '../conversations';
import { useRecipientSearch } from '../messaging';

/** A filter field of the Select Contacts step. */
export interface FilterFieldProps<T> {
  accountId: string;
  value: T[];
  onChange: (value: T[]) => void;
  disabled: boolean;
  error: string | undefined;
}

/** The lists a contact must be on (one of them). */
export const ListsField = ({ accountId, value, onChange, disabled, error }: FilterFieldProps<string>) => {
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

/** The contacts chosen one by one, found by name or number. */
export const ContactsField = ({ accountId, value, onChange, disabled, error }: FilterFieldProps<string>) => {
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
