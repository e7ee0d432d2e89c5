/*
 * The HubSpot page's mobile property option (the spec: phone, mobilephone, or both in either order): which
 * contact property holds the number Parley texts, and which one to fall back on.
 */

import type { HubSpotMobileOrder } from '@parley/shared';

export { hubspotMobileOrders, type HubSpotMobileOrder } from '@parley/shared';
export type HubSpotPhoneProperty = 'phone' | 'mobilephone';

/** The properties an option reads, first choice first. */
export function hubspotPhoneProperties(order: HubSpotMobileOrder): HubSpotPhoneProperty[] {
  switch (order) {
    case 'phone':
      return ['phone'];
    case 'mobilephone':
      return ['mobilephone'];
    case 'phone,mobilephone':
      return ['phone', 'mobilephone'];
    case 'mobilephone,phone':
      return ['mobilephone', 'phone'];
  }
}

/** The mobile of a HubSpot contact by the option: the first of its properties that holds a value, or null. */
export function chooseHubSpotMobile(properties: Partial<Record<HubSpotPhoneProperty, string | null>>, order: HubSpotMobileOrder): string | null {
  for (const name of hubspotPhoneProperties(order)) {
    const value = properties[name]?.trim() ?? '';
    if (value !== '') return value;
  }
  return null;
}
