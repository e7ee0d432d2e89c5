import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';

interface GroupTagsFieldProps {
  value: string[];
  onChange: (tags: string[]) => void;
  error: string | undefined;
  invalid: boolean;
}

/** The tags whose contacts a group answers: typed freely, each ended with Enter, blanks dropped. */
export const GroupTagsField = ({ value, onChange, error, invalid }: GroupTagsFieldProps) => (
  <Autocomplete
    multiple
    freeSolo
    options={[]}
    value={value}
    onChange={(_event, next) => {
      onChange(next.map((v) => v.trim()).filter((v) => v !== ''));
    }}
    renderValue={(tags, getItemProps) =>
      tags.map((tag, index) => {
        const { key, ...itemProps } = getItemProps({ index });
        return <Chip key={key} size="small" label={tag} {...itemProps} />;
      })
    }
    renderInput={(params) => (
      <TextField
        {...params}
        label="Tags"
        error={invalid}
        helperText={error ?? 'Contacts with these tags are answered by this group. Press Enter after each tag.'}
      />
    )}
  />
);
