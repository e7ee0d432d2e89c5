import type { PageKey } from './pages';
import type { RouteTitle } from './routeTitle';
import { chooserPaths } from '../session/selection';

/*
 * What a page route is, apart from the route table (routes.tsx) that lists them and the page that renders
 * one (RoutePage.tsx): both import it, and the table imports the page.
 */

export type RouteAccess = 'protected' | 'open';
/** app: side menu and top bar; plain: a slim bar with the product name; bare: nothing around the page. */
export type RouteLayout = 'app' | 'plain' | 'bare';

/** Protected pages that work without a chosen account: choosing one. */
export const accountFreePaths: readonly string[] = chooserPaths;

export interface PageRoute {
  path: string;
  title: RouteTitle;
  access: RouteAccess;
  layout: RouteLayout;
  page: PageKey;
}
