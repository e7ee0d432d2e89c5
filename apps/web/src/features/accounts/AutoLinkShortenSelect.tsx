import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Account, UpdateAccountOptions } from '@parley/shared';
import { useMemo } from 'react';
import { errorMessage } from '../../api/client';
import { isVerified, useDomains } from '../links';
import { useAccountUpdate } from './queries';

const DISABLED = '';

/**
 * Auto link shortening: the domain URLs in outgoing messages are shortened on (the deployment's short domain
 * or a verified custom domain), or '-- Disabled --'. Saves on change, as the option switches do.
 */
export const AutoLinkShortenSelect = ({ account }: { account: Account }) => {
  const save = useAccountUpdate<UpdateAccountOptions>(account.id, '/options');
  const shared = useDomains(account.id, true);
  const own = useDomains(account.id);
  const domains = useMemo(() => [...(shared.data?.data ?? []), ...(own.data?.data ?? []).filter((d) => isVerified(d))], [shared.data, own.data]);
  const current = save.isPending ? (save.variables.autoLinkShorten ?? DISABLED) : (account.options.autoLinkShorten ?? DISABLED);
  // A chosen domain no longer offered (unverified since) still shows, so the select never looks off while on.
  const known = current === DISABLED || domains.some((d) => d.id === current);
  return (
    <TextField
      select
      size="small"
      label="Auto link shortening"
      value={known ? current : DISABLED}
      disabled={save.isPending || shared.isPending}
      onChange={(event) => {
        save.mutate({ autoLinkShorten: event.target.value === DISABLED ? null : event.target.value });
      }}
      error={save.isError}
      helperText={save.isError ? errorMessage(save.error) : 'URLs in outgoing messages are sent as short links on this domain.'}
      // '' is '-- Disabled --', shown as a choice rather than as an empty field.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      sx={{ mt: 2, maxWidth: 420 }}
      fullWidth
    >
      <MenuItem value={DISABLED}>-- Disabled --</MenuItem>
      {domains.map((d) => (
        <MenuItem key={d.id} value={d.id}>
          {d.domain}
        </MenuItem>
      ))}
    </TextField>
  );
};
