import { FEATURE_BOARD } from '@parley/shared';

/** The board's address with the sign-on token and the board's name (docs/featureRequests.md, "An external board"). */
export const boardFrameUrl = (url: string, token: string): string => {
  const address = new URL(url);
  address.searchParams.set('ssoToken', token);
  if (!address.searchParams.has('board')) address.searchParams.set('board', FEATURE_BOARD);
  return address.toString();
};
