import { pageViewSinks, type ClientConfig } from '@parley/shared';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * The shape of GET /v1/config, checked by hand: the first screen should not have to load a schema
 * library to read five fields (the server already serialises this answer through the shared schema).
 */
export function isClientConfig(value: unknown): value is ClientConfig {
  if (!isObject(value)) return false;
  const { pageViews, realtime, auth, payments } = value;
  return (
    isString(value.version) &&
    typeof value.embedded === 'boolean' &&
    isString(value.publicUrl) &&
    typeof value.simulator === 'boolean' &&
    isObject(pageViews) &&
    (pageViewSinks as readonly unknown[]).includes(pageViews.sink) &&
    (pageViews.url === null || isString(pageViews.url)) &&
    (value.helpCenterUrl === null || isString(value.helpCenterUrl)) &&
    isObject(payments) &&
    (payments.provider === 'sandbox' || payments.provider === 'stripe') &&
    (payments.stripePublishableKey === null || isString(payments.stripePublishableKey)) &&
    isObject(realtime) &&
    isString(realtime.path) &&
    typeof realtime.devAuth === 'boolean' &&
    isObject(auth) &&
    isString(auth.issuer) &&
    isString(auth.clientId) &&
    isString(auth.scopes) &&
    Array.isArray(auth.socialProviders) &&
    auth.socialProviders.every((p: unknown) => isObject(p) && isString(p.id) && isString(p.name))
  );
}
