import { CONTACT_EMAIL_MAX, CONTACT_NAME_MAX, emailAddress } from '@parley/shared';
import type { TemplateWebhookIntegration } from './webhookLink.js';

/** The person a CRM's call is about, as far as a message needs them. */
export interface CrmContact {
  /** As the CRM holds it ('' when it sent none). */
  phone: string;
  firstName: string;
  lastName: string;
  /** Null when absent or not an address. */
  email: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A CRM value as text: strings and numbers (HubSpot sends some numbers unquoted), else ''. */
function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function contactOf(phone: string, firstName: string, lastName: string, email: string): CrmContact {
  const checked = emailAddress.safeParse(email);
  return {
    phone: phone.slice(0, 64),
    firstName: firstName.slice(0, CONTACT_NAME_MAX),
    lastName: lastName.slice(0, CONTACT_NAME_MAX),
    email: checked.success && checked.data.length <= CONTACT_EMAIL_MAX ? checked.data : null,
  };
}

/**
 * A HubSpot workflow's "Send a webhook" call. HubSpot sends the enrolled contact as JSON: with all its
 * properties either as `{ properties: { phone: { value } } }` (the classic shape) or `{ properties: { phone } }`,
 * or with a customised body as flat `{ phone, firstname, ... }`. The mobile phone wins over the phone.
 */
export function hubspotContact(body: unknown): CrmContact {
  const root = isRecord(body) ? body : {};
  const properties = isRecord(root.properties) ? root.properties : {};
  const property = (name: string): string => {
    const held = properties[name];
    const value = isRecord(held) ? text(held.value) : text(held);
    return value !== '' ? value : text(root[name]);
  };
  const mobile = property('mobilephone');
  return contactOf(mobile !== '' ? mobile : property('phone'), property('firstname'), property('lastname'), property('email'));
}

/**
 * An ActiveCampaign webhook (or an automation's webhook action): form fields named the PHP way,
 * `contact[phone]`, `contact[first_name]`, `contact[last_name]`, `contact[email]`. A JSON body with a
 * `contact` object is read the same way.
 */
export function activeCampaignContact(body: unknown): CrmContact {
  const root = isRecord(body) ? body : {};
  const nested = isRecord(root.contact) ? root.contact : {};
  const field = (name: string): string => {
    const flat = text(root[`contact[${name}]`]);
    return flat !== '' ? flat : text(nested[name]);
  };
  return contactOf(field('phone'), field('first_name'), field('last_name'), field('email'));
}

export function crmContact(integration: TemplateWebhookIntegration, body: unknown): CrmContact {
  switch (integration) {
    case 'hubspot':
      return hubspotContact(body);
    case 'activecampaign':
      return activeCampaignContact(body);
  }
}
