import AddOutlined from '@mui/icons-material/AddOutlined';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import RadioButtonUncheckedOutlined from '@mui/icons-material/RadioButtonUncheckedOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
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
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  CAMPAIGN_EXECUTE_QUESTION,
  CAMPAIGNS_EMPTY_STATE,
  campaignTriggerLabels,
  can,
  type Campaign,
  type CampaignTriggerCode,
} from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useSnackbar } from '../../components/snackbarContext';
import { useSession } from '../../session/sessionContext';
import type { PageProps } from '../../app/pageProps';
import { CampaignWizard } from './CampaignWizard';
import { ChooseTriggerDialog } from './ChooseTriggerDialog';
import { ExecutePreviewDialog } from './ExecutePreviewDialog';
import { ExecutionsTable } from './ExecutionsTable';
import { useCampaigns, useRemoveCampaign } from './queries';
import { UploadFileNowDialog } from './UploadFileNowDialog';

/** Tables page by 10, with 10, 25 or 50 rows. */
const PAGE_SIZES = [10, 25, 50];
const COLUMN_COUNT = 10;

type Dialogs =
  | { kind: 'trigger' }
  | { kind: 'wizard'; editing: { campaign: Campaign } | { trigger: CampaignTriggerCode } }
  | { kind: 'ask'; campaign: Campaign }
  | { kind: 'execute'; campaign: Campaign }
  | { kind: 'remove'; campaign: Campaign }
  | null;

const dateTime = (iso: string | null): string =>
  iso === null ? '' : new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

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
  const snackbar = useSnackbar();
  const [showInactive, setShowInactive] = useState(false);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] ?? 10);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<Dialogs>(null);
  const campaigns = useCampaigns(accountId, { offset: page * pageSize, limit: pageSize, showInactive });
  const remove = useRemoveCampaign(accountId);
  const rows = campaigns.data?.data ?? [];
  const close = (): void => { setDialog(null); };
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
                <TableCell colSpan={COLUMN_COUNT} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {campaigns.isPending ? 'Loading…' : CAMPAIGNS_EMPTY_STATE}
                </TableCell>
              </TableRow>
            )}
            {rows.map((campaign) => {
              const open = expanded.has(campaign.id);
              // Any campaign may be executed now; a Scheduled one also runs on its schedule.
              const executable = canExecute;
              return [
                <TableRow key={campaign.id} hover sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }}>
                  <TableCell padding="checkbox">
                    <IconButton
                      size="small"
                      aria-expanded={open}
                      aria-label={`${open ? 'Hide' : 'Show'} the executions of ${campaign.name}`}
                      onClick={() => { toggle(campaign.id); }}
                    >
                      {open ? <KeyboardArrowDown /> : <KeyboardArrowRight />}
                    </IconButton>
                  </TableCell>
                  <TableCell>
                    {campaign.active ? (
                      <CheckCircleOutlined color="success" fontSize="small" aria-label="Active" />
                    ) : (
                      <RadioButtonUncheckedOutlined color="disabled" fontSize="small" aria-label="Inactive" />
                    )}
                  </TableCell>
                  <TableCell sx={{ minWidth: 120 }}>{campaign.name}</TableCell>
                  <TableCell>{campaignTriggerLabels[campaign.trigger.code]}</TableCell>
                  <TableCell sx={{ maxWidth: 160 }}>
                    <Box component="span" title={campaign.template} sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {campaign.template}
                    </Box>
                  </TableCell>
                  <TableCell align="right">{campaign.executions.toLocaleString()}</TableCell>
                  <TableCell>{dateTime(campaign.lastExecution)}</TableCell>
                  <TableCell>{dateTime(campaign.nextExecution)}</TableCell>
                  <TableCell>{dateTime(campaign.updated.at)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {executable && (
                      <Tooltip title={campaign.trigger.code === 'FU' ? 'Upload File Now' : 'Execute Now'}>
                        <IconButton
                          size="small"
                          aria-label={`${campaign.trigger.code === 'FU' ? 'Upload File Now' : 'Execute Now'}: ${campaign.name}`}
                          onClick={() => { setDialog({ kind: 'execute', campaign }); }}
                        >
                          {campaign.trigger.code === 'FU' ? <UploadFileOutlined fontSize="small" /> : <PlayArrowOutlined fontSize="small" />}
                        </IconButton>
                      </Tooltip>
                    )}
                    {canWrite && (
                      <>
                        <IconButton size="small" aria-label={`Edit ${campaign.name}`} onClick={() => { setDialog({ kind: 'wizard', editing: { campaign } }); }}>
                          <EditOutlined fontSize="small" />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label={`Remove ${campaign.name}`}
                          onClick={() => {
                            remove.reset();
                            setDialog({ kind: 'remove', campaign });
                          }}
                        >
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </>
                    )}
                  </TableCell>
                </TableRow>,
                <TableRow key={`${campaign.id}-executions`}>
                  <TableCell colSpan={COLUMN_COUNT} sx={{ py: 0, ...(open ? {} : { borderBottom: 'none' }) }}>
                    <Collapse in={open} timeout="auto" unmountOnExit>
                      <Box sx={{ my: 1, ml: 6 }}>
                        <ExecutionsTable accountId={accountId} campaignId={campaign.id} />
                      </Box>
                    </Collapse>
                  </TableCell>
                </TableRow>,
              ];
            })}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          count={campaigns.data?.pagination.totalCount ?? 0}
          page={page}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_e, next) => { setPage(next); }}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
        />
      </TableContainer>
      {dialog?.kind === 'trigger' && (
        <ChooseTriggerDialog onClose={close} onChoose={(trigger) => { setDialog({ kind: 'wizard', editing: { trigger } }); }} />
      )}
      {dialog?.kind === 'wizard' && (
        <CampaignWizard
          accountId={accountId}
          editing={dialog.editing}
          onClose={close}
          onSaved={(campaign) => {
            // After saving a Manual campaign, offer its execution (the file dialog for File Upload).
            setDialog(campaign.trigger.code !== 'S' && campaign.active && canExecute ? { kind: 'ask', campaign } : null);
          }}
        />
      )}
      {dialog?.kind === 'ask' && (
        <ConfirmDialog
          title={CAMPAIGN_EXECUTE_QUESTION}
          message={
            dialog.campaign.trigger.code === 'FU'
              ? `Upload a file now to execute "${dialog.campaign.name}"?`
              : `See who "${dialog.campaign.name}" would text now and what it would cost, then execute it?`
          }
          confirmLabel={dialog.campaign.trigger.code === 'FU' ? 'Upload File Now' : 'Execute Now'}
          onConfirm={() => { setDialog({ kind: 'execute', campaign: dialog.campaign }); }}
          onCancel={close}
        />
      )}
      {dialog?.kind === 'execute' &&
        (dialog.campaign.trigger.code === 'FU' ? (
          <UploadFileNowDialog accountId={accountId} campaign={dialog.campaign} onClose={close} />
        ) : (
          <ExecutePreviewDialog accountId={accountId} campaign={dialog.campaign} onClose={close} />
        ))}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title="Remove Campaign"
          message={`Remove the campaign "${dialog.campaign.name}" and its executions?`}
          confirmLabel="Remove"
          pending={remove.isPending}
          error={remove.isError ? <ErrorAlert message={errorMessage(remove.error)} /> : undefined}
          onConfirm={() => {
            remove.mutate(dialog.campaign.id, {
              onSuccess: () => {
                close();
                snackbar.show('Campaign removed');
              },
            });
          }}
          onCancel={close}
        />
      )}
    </>
  );
};
