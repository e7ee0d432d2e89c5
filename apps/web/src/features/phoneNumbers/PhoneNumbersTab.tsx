import AddIcCallOutlined from '@mui/icons-material/AddIcCallOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { can, type PhoneNumber } from '@parley/shared';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAccount } from '../../session/queries';
import { usePhoneDisplay } from '../../session/usePhoneDisplay';
import { AddPhoneNumberDialog } from './AddPhoneNumberDialog';
import { PhoneNumberConfigDialog } from './PhoneNumberConfigDialog';
import { needsVerification, phoneNumberCells, showsAddNumber } from './phoneNumberRules';
import { usePhoneNumbers } from './queries';
import { VerifyPhoneNumberDialog } from './VerifyPhoneNumberDialog';

type Open = { kind: 'add' } | { kind: 'verify'; id: string } | { kind: 'configure'; number: PhoneNumber } | null;

const hidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' } as const;

/** The account's phone numbers, with add (buy or hosted), verify and configure. */
export const PhoneNumbersTab = ({ accountId }: { accountId: string }) => {
  const account = useAccount(accountId);
  const numbers = usePhoneNumbers(accountId);
  const display = usePhoneDisplay();
  const [open, setOpen] = useState<Open>(null);
  const role = account.data?.user.role ?? 'ReadOnly';
  const manages = can(role, 'phoneNumbers.manage');
  const close = () => {
    setOpen(null);
  };

  return (
    <Box>
      {account.isSuccess && showsAddNumber(role, account.data.plan.isTrial) && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
          <Button startIcon={<AddIcCallOutlined />} variant="contained" onClick={() => { setOpen({ kind: 'add' }); }}>
            Add Phone Number
          </Button>
        </Box>
      )}
      {numbers.isPending && <LinearProgress aria-label="Loading phone numbers" />}
      {numbers.isError && <ErrorAlert message={errorMessage(numbers.error)} onRetry={() => void numbers.refetch()} />}
      {numbers.isSuccess && numbers.data.length === 0 && <Typography sx={{ py: 3 }}>No Phone Numbers Exist</Typography>}
      {numbers.isSuccess && numbers.data.length > 0 && (
        <TableContainer>
          <Table size="small" aria-label="Phone Numbers">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Number</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Country</TableCell>
                <TableCell>Type</TableCell>
                <TableCell>Forward To</TableCell>
                <TableCell>Universal Reply</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={hidden}>
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {numbers.data.map((number) => {
                const cells = phoneNumberCells(number, display.phone);
                return (
                  <TableRow key={number.id}>
                    <TableCell>{cells.name}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{cells.number}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" label={cells.status} color={number.status === 'active' ? 'success' : 'default'} />
                    </TableCell>
                    <TableCell>{cells.country}</TableCell>
                    <TableCell>{cells.type}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{cells.forwardTo}</TableCell>
                    <TableCell>{cells.universalReply}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {manages && needsVerification(number) && (
                        <Button size="small" onClick={() => { setOpen({ kind: 'verify', id: number.id }); }} aria-label={`Verify ${cells.number}`}>
                          Verify
                        </Button>
                      )}
                      {manages && (
                        <IconButton
                          aria-label={`Configure ${cells.number}`}
                          title="Configure"
                          size="small"
                          onClick={() => { setOpen({ kind: 'configure', number }); }}
                        >
                          <SettingsOutlined fontSize="small" />
                        </IconButton>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {open?.kind === 'add' && (
        <AddPhoneNumberDialog
          accountId={accountId}
          defaultCountry={account.data?.defaults.country.code ?? 'US'}
          onClose={close}
          onVerify={(id) => { setOpen({ kind: 'verify', id }); }}
        />
      )}
      {open?.kind === 'verify' && (
        <VerifyPhoneNumberDialog
          accountId={accountId}
          number={numbers.data?.find((n) => n.id === open.id)?.number ?? null}
          phoneNumberId={open.id}
          onClose={close}
        />
      )}
      {open?.kind === 'configure' && <PhoneNumberConfigDialog accountId={accountId} phoneNumber={open.number} onClose={close} />}
    </Box>
  );
};
