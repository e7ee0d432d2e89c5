import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import RadioButtonUncheckedOutlined from '@mui/icons-material/RadioButtonUncheckedOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { campaignTriggerLabels, type Campaign } from '@parley/shared';
import { EditRemoveButtons } from '../../components/EditRemoveButtons';
import { ExecutionsTable } from './ExecutionsTable';

/** The columns of the campaigns table, the expand button's included. */
export const CAMPAIGN_COLUMN_COUNT = 10;

const dateTime = (iso: string | null): string =>
  iso === null ? '' : new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

interface CampaignRowProps {
  accountId: string;
  campaign: Campaign;
  /** Its executions are shown under it. */
  open: boolean;
  canWrite: boolean;
  /** Any campaign may be executed now; a Scheduled one also runs on its schedule. */
  canExecute: boolean;
  onToggle: () => void;
  onExecute: () => void;
  onEdit: () => void;
  onRemove: () => void;
}

/** One campaign of the table, and under it the row its executions expand into. */
export const CampaignRow = ({ accountId, campaign, open, canWrite, canExecute, onToggle, onExecute, onEdit, onRemove }: CampaignRowProps) => (
  <>
    <TableRow hover sx={{ '& > td': { borderBottom: open ? 'unset' : undefined } }}>
      <TableCell padding="checkbox">
        <IconButton
          size="small"
          aria-expanded={open}
          aria-label={`${open ? 'Hide' : 'Show'} the executions of ${campaign.name}`}
          onClick={onToggle}
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
        {canExecute && (
          <Tooltip title={campaign.trigger.code === 'FU' ? 'Upload File Now' : 'Execute Now'}>
            <IconButton
              size="small"
              aria-label={`${campaign.trigger.code === 'FU' ? 'Upload File Now' : 'Execute Now'}: ${campaign.name}`}
              onClick={onExecute}
            >
              {campaign.trigger.code === 'FU' ? <UploadFileOutlined fontSize="small" /> : <PlayArrowOutlined fontSize="small" />}
            </IconButton>
          </Tooltip>
        )}
        {canWrite && (
          <EditRemoveButtons editLabel={`Edit ${campaign.name}`} removeLabel={`Remove ${campaign.name}`} onEdit={onEdit} onRemove={onRemove} />
        )}
      </TableCell>
    </TableRow>
    <TableRow>
      <TableCell colSpan={CAMPAIGN_COLUMN_COUNT} sx={{ py: 0, ...(open ? {} : { borderBottom: 'none' }) }}>
        <Collapse in={open} timeout="auto" unmountOnExit>
          <Box sx={{ my: 1, ml: 6 }}>
            <ExecutionsTable accountId={accountId} campaignId={campaign.id} />
          </Box>
        </Collapse>
      </TableCell>
    </TableRow>
  </>
);
