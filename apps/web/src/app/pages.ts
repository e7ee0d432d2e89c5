import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageProps } from '../pages/pageProps';

export type PageKey = 'home' | 'notAvailable' | 'notFound';

/** One chunk per page, so the first route only loads what it shows. */
export const pages: Record<PageKey, LazyExoticComponent<ComponentType<PageProps>>> = {
  home: lazy(() => import('../pages/home/HomePage').then((m) => ({ default: m.HomePage }))),
  notAvailable: lazy(() => import('../pages/notAvailable/NotAvailablePage').then((m) => ({ default: m.NotAvailablePage }))),
  notFound: lazy(() => import('../pages/notFound/NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
};
