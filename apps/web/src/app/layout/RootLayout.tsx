import { Outlet } from 'react-router';
import { usePageViews } from '../usePageViews';

export const RootLayout = () => {
  usePageViews();
  return <Outlet />;
};
