import type { Bundle, ZObject } from 'zapier-platform-core';
import { callAccount, findContactByMobile, type ContactRecord } from '../parleyApi.js';

interface ContactInput {
  mobile: string;
  country?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  tags?: string[];
}

/** The fields given, leaving out those left empty (an update keeps what it is not told). */
function fieldsOf(input: Partial<ContactInput>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (input.firstName) fields.firstName = input.firstName;
  if (input.lastName) fields.lastName = input.lastName;
  if (input.email) fields.email = input.email;
  if (input.tags !== undefined && input.tags.length > 0) fields.tags = input.tags;
  return fields;
}

/** The contact with this mobile is updated, or added when the account has none. */
async function upsert(z: ZObject, bundle: Bundle<Partial<ContactInput>>) {
  const { mobile = '', country } = bundle.inputData;
  const existing = await findContactByMobile(z, bundle, mobile, country);
  const fields = fieldsOf(bundle.inputData);
  if (existing !== null) {
    const updated = await callAccount<ContactRecord>(z, bundle, { method: 'PUT', path: `/contacts/${existing.id}`, body: fields });
    return { ...updated, created: false };
  }
  const mobileField = { number: mobile, ...(country ? { country: country.toUpperCase() } : {}) };
  const [created] = await callAccount<ContactRecord[]>(z, bundle, { method: 'POST', path: '/contacts', body: { ...fields, mobile: mobileField } });
  if (created === undefined) throw new z.errors.Error('Parley did not add the contact', 'not_created', 409);
  return { ...created, created: true };
}

export const upsertContact = {
  key: 'upsert_contact',
  noun: 'Contact',
  display: { label: 'Create or Update Contact', description: 'Adds a contact by mobile number, or updates the one that has it.' },
  operation: {
    inputFields: [
      { key: 'mobile', label: 'Mobile Number', required: true, helpText: 'Best written with + and the country code (+12025550143).' },
      { key: 'country', label: 'Country', required: false, helpText: "Two letters (US, GB ...) for a number written without +; the account's country by default." },
      { key: 'firstName', label: 'First Name', required: false },
      { key: 'lastName', label: 'Last Name', required: false },
      { key: 'email', label: 'Email', required: false },
      { key: 'tags', label: 'Tags', required: false, list: true, helpText: 'Replace the contact’s tags when given.' },
    ],
    perform: upsert,
    sample: { id: '0194b2a0-0000-7000-8000-000000000002', firstName: 'Ada', lastName: 'Lovelace', mobile: { number: '+12025550143', country: 'US' }, created: true },
  },
};
