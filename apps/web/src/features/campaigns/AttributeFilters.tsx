import AddOutlined from '@mui/icons-material/AddOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { attributeComparatorLabels, attributeComparators, campaignAttributeFilterSchema, type CampaignAttributeFilter } from '@parley/shared';
import { useState } from 'react';
import { useAttributeNames } from '../contacts';
import type { FilterFieldProps } from './ContactFilterFields';

type Comparator = CampaignAttributeFilter['comparator'];

/** 'attribute and comparator required to add'; the value may be empty. */
export const AttributeFilters = ({ accountId, value, onChange, disabled, error }: FilterFieldProps<CampaignAttributeFilter>) => {
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
