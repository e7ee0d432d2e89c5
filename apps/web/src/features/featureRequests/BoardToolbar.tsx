import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { featureRequestStatuses, featureRequestStatusLabels, type FeatureRequestSort, type FeatureRequestStatus } from '@parley/shared';
import { useEffect, useState } from 'react';
import type { BoardFilter } from './queries';

const ALL = 'all';
const SEARCH_PAUSE_MS = 300;

interface BoardToolbarProps {
  filter: BoardFilter;
  onFilter: (change: Partial<BoardFilter>) => void;
  onNew: () => void;
}

/** Search, sort, status filter and 'New Request'. */
export const BoardToolbar = ({ filter, onFilter, onNew }: BoardToolbarProps) => {
  const [search, setSearch] = useState(filter.search);
  // The list follows the search once typing pauses, not at every key.
  useEffect(() => {
    if (search === filter.search) return undefined;
    const timer = setTimeout(() => {
      onFilter({ search, offset: 0 });
    }, SEARCH_PAUSE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [search, filter.search, onFilter]);

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
      <TextField
        size="small"
        label="Search"
        type="search"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
        }}
        sx={{ flex: 1, minWidth: 0 }}
        slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
      />
      <Stack direction="row" spacing={1.5}>
        <TextField
          select
          size="small"
          label="Sort"
          value={filter.sort}
          onChange={(event) => {
            onFilter({ sort: event.target.value as FeatureRequestSort, offset: 0 });
          }}
          sx={{ flex: 1, minWidth: 150 }}
        >
          <MenuItem value="votes">Most votes</MenuItem>
          <MenuItem value="recent">Newest</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Status"
          value={filter.status ?? ALL}
          onChange={(event) => {
            onFilter({ status: event.target.value === ALL ? null : (event.target.value as FeatureRequestStatus), offset: 0 });
          }}
          sx={{ flex: 1, minWidth: 150 }}
        >
          <MenuItem value={ALL}>All</MenuItem>
          {featureRequestStatuses.map((s) => (
            <MenuItem key={s} value={s}>
              {featureRequestStatusLabels[s]}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Button variant="contained" startIcon={<AddIcon />} onClick={onNew} sx={{ whiteSpace: 'nowrap' }}>
        New Request
      </Button>
    </Stack>
  );
};
