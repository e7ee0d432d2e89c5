import MenuItem from '@mui/material/MenuItem';
import { supportedCountries } from '@parley/shared';

/**
 * The options of every country select. A function rather than a component: MUI's select reads its
 * direct MenuItem children to show the chosen value.
 */
export const countryMenuItems = () =>
  supportedCountries.map((c) => (
    <MenuItem key={c.code} value={c.code}>
      {c.name}
    </MenuItem>
  ));
