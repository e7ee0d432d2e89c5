import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { TAG_SUGGESTIONS_LIMIT } from '@parley/shared';
import { useState } from 'react';
import { splitTags } from './contactForm';
import { useTagSuggestions } from './contactsQueries';
import { TAG_LOOKUP_THROTTLE_MS, useThrottledValue } from './timing';

interface TagsFieldProps {
  accountId: string;
  value: string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
  error?: string | undefined;
}

/** Tags as chips; typing suggests the account's tags (at most 10, looked up at most every 200 ms). */
export const TagsField = ({ accountId, value, onChange, disabled = false, error }: TagsFieldProps) => {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const prefix = useThrottledValue(input.trim(), TAG_LOOKUP_THROTTLE_MS);
  const suggestions = useTagSuggestions(accountId, prefix, open && !disabled);
  const add = (tags: string[]): void => {
    const lower = new Set(value.map((t) => t.toLowerCase()));
    onChange([...value, ...tags.filter((t) => !lower.has(t.toLowerCase()))]);
  };
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      disabled={disabled}
      options={(suggestions.data ?? []).filter((t) => !value.includes(t)).slice(0, TAG_SUGGESTIONS_LIMIT)}
      value={value}
      inputValue={input}
      open={open}
      onOpen={() => {
        setOpen(true);
      }}
      onClose={() => {
        setOpen(false);
      }}
      loading={suggestions.isFetching}
      filterOptions={(options) => options}
      onInputChange={(_event, text, reason) => {
        // A comma ends a tag, as Enter does.
        if (reason === 'input' && text.includes(',')) {
          const parts = text.split(',');
          const rest = parts.pop() ?? '';
          add(splitTags(parts.join(',')));
          setInput(rest);
          return;
        }
        setInput(text);
      }}
      onChange={(_event, tags) => {
        onChange([...new Set(tags.flatMap(splitTags))]);
        setInput('');
      }}
      onBlur={() => {
        // A tag typed but not yet entered is kept rather than lost.
        if (input.trim() !== '') add(splitTags(input));
        setInput('');
      }}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={tag} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField {...params} label="Tags" error={error !== undefined} helperText={error ?? 'Press Enter or type a comma after each tag'} />
      )}
    />
  );
};
