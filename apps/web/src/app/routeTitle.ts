import type { Params } from 'react-router';
import { brand } from './brand';

export type RouteTitle = string | ((params: Params) => string);

export const resolveTitle = (title: RouteTitle, params: Params): string =>
  typeof title === 'string' ? title : title(params);

export const documentTitle = (title: string): string => (title === 'Home' ? brand.name : `${title} · ${brand.name}`);

/** Only 'acceptablehours' is a known approval type. */
export const approvalTitle = (params: Params): string =>
  params.approvalType === 'acceptablehours' ? 'Acceptable Hours' : 'Unknown';
