import { templateTypeOf, type TemplateType } from '@parley/shared';

/** The type a /templates path shows: its last segment (sms, web, optin); SMS at /templates itself. */
export const templateTypeOfPath = (pathname: string): TemplateType => {
  const segment = pathname.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return templateTypeOf(segment) ?? 'SMS';
};
