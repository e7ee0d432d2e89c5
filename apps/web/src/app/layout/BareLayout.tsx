import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageFallback } from './PageFallback';

export const BareLayout = () => (
  <Suspense fallback={<PageFallback />}>
    <Outlet />
  </Suspense>
);
