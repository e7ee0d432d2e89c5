import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { Account, UpdateAccountOptions } from '@parley/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AutoLinkShortenSelect } from './AutoLinkShortenSelect';
import { useAccountUpdate } from './queries';

const toggles: { key: 'verifyNumberType' | 'universalMMS'; label: string; help?: string }[] = [
  {
    key: 'verifyNumberType',
    label: 'Validate phone number type',
    help: 'Checks whether each contact number is a mobile; costs 1 cent USD once per contact.',
  },
  { key: 'universalMMS', label: 'Universal MMS' },
];

/** The account's option toggles (PUT /v1/accounts/{acc}/options); each change saves at once. */
export const AccountOptionSwitches = ({ account }: { account: Account }) => {
  const save = useAccountUpdate<UpdateAccountOptions>(account.id, '/options');
  const pendingKey = save.isPending ? Object.keys(save.variables)[0] : undefined;
  return (
    <div>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
        Options
      </Typography>
      <FormGroup>
        {toggles.map((toggle) => (
          <div key={toggle.key}>
            <FormControlLabel
              label={toggle.label}
              control={
                <Switch
                  checked={pendingKey === toggle.key ? !account.options[toggle.key] : account.options[toggle.key]}
                  disabled={save.isPending}
                  onChange={(_event, checked) => {
                    save.mutate({ [toggle.key]: checked });
                  }}
                />
              }
            />
            {toggle.help !== undefined && <FormHelperText sx={{ mt: -0.5, mb: 1 }}>{toggle.help}</FormHelperText>}
          </div>
        ))}
      </FormGroup>
      <AutoLinkShortenSelect account={account} />
      {save.isError && <ErrorAlert message={errorMessage(save.error)} />}
    </div>
  );
};
