import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { CatalogPlan } from '@parley/shared';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import { useConfig } from '../../app/configContext';
import { useIsPhone } from '../../components/useIsPhone';
import { includedSegmentsText, PLAN_PRICING_PAGE_SIZES, planPriceText, segmentPriceText } from './planCatalog';

interface PlanComparisonTableProps {
  plans: CatalogPlan[];
  loading: boolean;
  onSelect: (plan: CatalogPlan) => void;
}

const ContactUs = () => {
  const { helpCenterUrl } = useConfig();
  return helpCenterUrl === null ? (
    <Chip size="small" label="Contact Us for more" />
  ) : (
    <Link href={helpCenterUrl} target="_blank" rel="noopener" variant="body2">
      Contact Us for more
    </Link>
  );
};

/** The plan comparison: price, included segments, prices per segment and support, with the choice of each. */
export const PlanComparisonTable = ({ plans, loading, onSelect }: PlanComparisonTableProps) => {
  const phone = useIsPhone();
  const details: GridColDef<CatalogPlan>[] = [
    { field: 'price', headerName: 'Monthly Charge', minWidth: 150, valueFormatter: (_value, plan) => planPriceText(plan) },
    {
      field: 'includedSegments',
      headerName: 'Included Segments',
      minWidth: 170,
      flex: 1,
      valueGetter: (_value, plan) => `${includedSegmentsText(plan)} (${plan.includedSegments.country})`,
    },
    { field: 'sms', headerName: 'SMS / Segment', minWidth: 120, valueGetter: (_value, plan) => segmentPriceText(plan, 'sms') },
    { field: 'mms', headerName: 'MMS / Segment', minWidth: 120, valueGetter: (_value, plan) => segmentPriceText(plan, 'mms') },
    { field: 'supportLevel', headerName: 'Support', minWidth: 100 },
  ];
  const choose: GridColDef<CatalogPlan> = {
    field: 'choose',
    headerName: '',
    minWidth: 250,
    sortable: false,
    renderCell: ({ row }) => (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%' }}>
        <Button
          size="small"
          variant={row.current ? 'text' : 'contained'}
          disabled={row.current}
          aria-label={row.current ? `${row.name} is the current plan` : `Choose ${row.name}`}
          onClick={() => {
            onSelect(row);
          }}
        >
          {row.current ? 'Current Plan' : 'Choose'}
        </Button>
        {row.contactUs && <ContactUs />}
      </Stack>
    ),
  };
  const name: GridColDef<CatalogPlan> = { field: 'name', headerName: 'Plan', minWidth: 110, flex: 1 };
  // On a phone the choice comes right after the name, where it is seen without scrolling sideways.
  const columns = phone ? [name, choose, ...details] : [name, ...details, choose];
  return (
    <DataGrid
      aria-label="Plans"
      rows={plans}
      columns={columns}
      loading={loading}
      initialState={{ pagination: { paginationModel: { page: 0, pageSize: PLAN_PRICING_PAGE_SIZES[0] ?? 10 } } }}
      pageSizeOptions={PLAN_PRICING_PAGE_SIZES}
      disableRowSelectionOnClick
      disableColumnFilter
      disableColumnSorting
      autoHeight
      localeText={{ noRowsLabel: 'No plans are on offer' }}
    />
  );
};
