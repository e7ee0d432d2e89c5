import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import type { Invoice } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { billingDateText, invoiceStatusText, invoiceTotalText } from './billingFormat';
import { useOpenInvoicePdf } from './invoicePdf';
import { useInvoices } from './queries';

/** The Invoices tab pages by 5 or 10 (spec constants). */
export const INVOICE_PAGE_SIZES = [5, 10];

/** Account settings' Invoices tab: plan charges and top-ups, newest first, each with its PDF and receipt. */
export const InvoicesTab = ({ accountId }: { accountId: string }) => {
  const invoices = useInvoices(accountId);
  const openPdf = useOpenInvoicePdf();
  const [pdfError, setPdfError] = useState<string | null>(null);
  const columns: GridColDef<Invoice>[] = [
    { field: 'date', headerName: 'Date', minWidth: 120, valueFormatter: (value: string) => billingDateText(value) },
    { field: 'description', headerName: 'Description', minWidth: 180, flex: 1 },
    { field: 'total', headerName: 'Total', minWidth: 110, valueFormatter: (value: string) => invoiceTotalText(value) },
    { field: 'status', headerName: 'Status', minWidth: 100, valueFormatter: (value: string) => invoiceStatusText(value) },
    { field: 'error', headerName: 'Error', minWidth: 140, flex: 1, valueFormatter: (value: string | null) => value ?? '' },
    {
      field: 'invoicePdf',
      headerName: 'PDF',
      minWidth: 80,
      sortable: false,
      renderCell: ({ row }) => (
        <Button
          size="small"
          aria-label={`PDF of the invoice of ${billingDateText(row.date)}`}
          onClick={() => {
            setPdfError(null);
            openPdf(row.invoicePdf).catch((error: unknown) => {
              setPdfError(error instanceof Error ? error.message : errorMessage(error));
            });
          }}
        >
          PDF
        </Button>
      ),
    },
    {
      field: 'receipt',
      headerName: 'Receipt',
      minWidth: 90,
      sortable: false,
      renderCell: ({ row }) =>
        row.receipt === null ? (
          <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 'inherit' }}>
            —
          </Typography>
        ) : (
          <Link href={row.receipt} target="_blank" rel="noopener">
            Receipt
          </Link>
        ),
    },
  ];
  return (
    <>
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        Plan charges and top-ups, newest first. The sandbox provider writes its own PDFs; Stripe&apos;s come from Stripe.
      </Typography>
      {invoices.isError && <ErrorAlert message={errorMessage(invoices.error)} onRetry={() => void invoices.refetch()} />}
      {pdfError !== null && <ErrorAlert message={pdfError} />}
      <DataGrid
        aria-label="Invoices"
        rows={invoices.data?.data ?? []}
        columns={columns}
        loading={invoices.isPending}
        initialState={{ pagination: { paginationModel: { page: 0, pageSize: INVOICE_PAGE_SIZES[0] ?? 5 } } }}
        pageSizeOptions={INVOICE_PAGE_SIZES}
        disableRowSelectionOnClick
        disableColumnFilter
        autoHeight
        localeText={{ noRowsLabel: 'No Invoices Exist' }}
      />
    </>
  );
};
