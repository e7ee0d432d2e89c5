import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { ErrorAlert } from './ErrorAlert';

/** Tables page by 10, with 10, 25 or 50 rows. */
export const TABLE_PAGE_SIZES = [10, 25, 50];

interface PageTableProps<Row extends GridValidRowModel> {
  /** What the table holds, in a sentence above it. */
  intro: ReactNode;
  /** The add button beside the sentence, for those who may add. */
  add?: { label: string; onClick: () => void };
  /** The table's accessible name. */
  label: string;
  /** The whole list, loaded at once and paged in the browser. */
  query: UseQueryResult<{ data: Row[] }>;
  columns: GridColDef<Row>[];
  /** What an empty table says. */
  emptyLabel: string;
  /** Rows grow to fit what their cells wrap (chips, several lines). */
  autoRowHeight?: boolean;
}

/** A page's table of records: its sentence and add button, a failed load with Retry, the rows by pages. */
export const PageTable = <Row extends GridValidRowModel>({ intro, add, label, query, columns, emptyLabel, autoRowHeight = false }: PageTableProps<Row>) => (
  <>
    {/* On a narrow screen the add button goes under the sentence rather than squeezing it. */}
    <Stack direction="row" sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Typography color="text.secondary" sx={{ flex: 1, minWidth: 240 }}>
        {intro}
      </Typography>
      {add !== undefined && (
        <Button variant="contained" startIcon={<AddOutlined />} onClick={add.onClick}>
          {add.label}
        </Button>
      )}
    </Stack>
    {query.isError && <ErrorAlert message={errorMessage(query.error)} onRetry={() => void query.refetch()} />}
    <DataGrid
      aria-label={label}
      rows={query.data?.data ?? []}
      columns={columns}
      loading={query.isPending}
      initialState={{ pagination: { paginationModel: { page: 0, pageSize: TABLE_PAGE_SIZES[0] ?? 10 } } }}
      pageSizeOptions={TABLE_PAGE_SIZES}
      disableRowSelectionOnClick
      disableColumnFilter
      autoHeight
      localeText={{ noRowsLabel: emptyLabel }}
      getRowHeight={autoRowHeight ? () => 'auto' : undefined}
      sx={autoRowHeight ? { '& .MuiDataGrid-cell': { py: 1 } } : undefined}
    />
  </>
);
