import AddOutlined from '@mui/icons-material/AddOutlined';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CAMPAIGNS_EMPTY_STATE, can } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import type { PageProps } from '../../app/pageProps';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TABLE_PAGE_SIZES } from '../../components/PageTable';
import { useSession } from '../../session/sessionContext';
import { CampaignDialogs, type CampaignDialog } from './CampaignDialogs';
import { CAMPAIGN_COLUMN_COUNT, CampaignRow } from './CampaignRow';
import { useCampaigns, useRemoveCampaign } from './queries';

/** /campaigns: the account's campaigns, the most recently updated first, each expanding into its executions. */
export const CampaignsPage = ({ title }: PageProps) => {
  const { account } = useSession();
  if (account === null) return null;
  return (
    <>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <CampaignsTable
        accountId={account.id}
        canWrite={can(account.user.role, 'campaigns.write')}
        canExecute={can(account.user.role, 'campaigns.execute')}
      />
    </>
  );
};

const CampaignsTable = ({ accountId, canWrite, canExecute }: { accountId: string; canWrite: boolean; canExecute: boolean }) => {
  const [showInactive, setShowInactive] = useState(false);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(TABLE_PAGE_SIZES[0] ?? 10);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<CampaignDialog>(null);
  const campaigns = useCampaigns(accountId, { offset: page * pageSize, limit: pageSize, showInactive });
  const remove = useRemoveCampaign(accountId);
  const rows = campaigns.data?.data ?? [];
  const toggle = (id: string): void => {
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  };

  return (
    <>
      <Stack direction="row" sx={{ mb: 1.5, alignItems: 'center' }}>
        <FormControlLabel
          sx={{ flex: 1 }}
          control={
            <Switch
              checked={showInactive}
              onChange={(e) => {
                setShowInactive(e.target.checked);
                setPage(0);
              }}
            />
          }
          label="Show Inactive"
        />
        {canWrite && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => { setDialog({ kind: 'trigger' }); }}>
            Create Campaign
          </Button>
        )}
      </Stack>
      {campaigns.isError && <ErrorAlert message={errorMessage(campaigns.error)} onRetry={() => void campaigns.refetch()} />}
      <TableContainer component={Paper} variant="outlined">
        {/* Ten columns fit 1280 px beside the menu with half the usual cell padding. */}
        <Table size="small" aria-label="Campaigns" sx={{ '& > * > tr > th, & > * > tr > td': { px: 1 } }}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>Active</TableCell>
              <TableCell>Name</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Template</TableCell>
              <TableCell align="right">Executions</TableCell>
              <TableCell>Last Execution</TableCell>
              <TableCell>Next Execution</TableCell>
              <TableCell>Updated</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={CAMPAIGN_COLUMN_COUNT} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {campaigns.isPending ? 'Loading…' : CAMPAIGNS_EMPTY_STATE}
                </TableCell>
              </TableRow>
            )}
            {rows.map((campaign) => (
              <CampaignRow
                key={campaign.id}
                accountId={accountId}
                campaign={campaign}
                open={expanded.has(campaign.id)}
                canWrite={canWrite}
                canExecute={canExecute}
                onToggle={() => { toggle(campaign.id); }}
                onExecute={() => { setDialog({ kind: 'execute', campaign }); }}
                onEdit={() => { setDialog({ kind: 'wizard', editing: { campaign } }); }}
                onRemove={() => {
                  remove.reset();
                  setDialog({ kind: 'remove', campaign });
                }}
              />
            ))}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          count={campaigns.data?.pagination.totalCount ?? 0}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={TABLE_PAGE_SIZES}
          onPageChange={(_e, next) => { setPage(next); }}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
        />
      </TableContainer>
      <CampaignDialogs accountId={accountId} dialog={dialog} canExecute={canExecute} remove={remove} onDialog={setDialog} />
    </>
  );
};
