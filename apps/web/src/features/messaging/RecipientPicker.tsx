import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { Contact } from '@parley/shared';
import { useState } from 'react';
import { CONTACT_SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../contacts';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { ContactOption, unreachableReason } from './ContactOption';
import { useRecipientSearch } from './sendMessageQueries';

interface RecipientPickerProps {
  accountId: string;
  value: Contact[];
  onChange: (contacts: Contact[]) => void;
  disabled?: boolean;
}

/** The recipients: a contact search (500 ms after the last keystroke) that picks several. */
export const RecipientPicker = ({ accountId, value, onChange, disabled }: RecipientPickerProps) => {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const q = useDebouncedValue(input.trim(), CONTACT_SEARCH_DEBOUNCE_MS);
  const search = useRecipientSearch(accountId, q, open);
  const display = usePhoneDisplay();
  return (
    <Autocomplete<Contact, true>
      multiple
      disabled={disabled}
      open={open}
      onOpen={() => {
        setOpen(true);
      }}
      onClose={() => {
        setOpen(false);
      }}
      options={search.data ?? []}
      loading={search.isFetching}
      value={value}
      inputValue={input}
      onInputChange={(_event, text, reason) => {
        // Picking a contact keeps the search text, so several can be picked from one search.
        if (reason !== 'reset') setInput(text);
      }}
      onChange={(_event, contacts) => {
        onChange(contacts);
      }}
      // The server searched already: every option it answered is a match.
      filterOptions={(options) => options}
      filterSelectedOptions
      disableCloseOnSelect
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      getOptionLabel={(contact) => display.name(contact)}
      getOptionDisabled={(contact) => unreachableReason(contact) !== null}
      noOptionsText={q === '' ? 'Type a name, number or email' : 'No Contacts Exist'}
      renderOption={(props, contact) => {
        const { key, ...rest } = props;
        return <ContactOption key={key} itemProps={rest} contact={contact} />;
      }}
      renderValue={(contacts, getItemProps) =>
        contacts.map((contact, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={display.name(contact)} {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} label="To" placeholder={value.length === 0 ? 'Search contacts' : undefined} />}
    />
  );
};
