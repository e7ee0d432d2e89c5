import type { Bundle, ZObject } from 'zapier-platform-core';
import { callAccount, findContactByMobile } from '../parleyApi.js';

interface AddInput {
  list: string;
  mobile: string;
  country?: string;
}

/** Adds the contact with this mobile to the list (POST .../lists/{id}/contacts). */
async function add(z: ZObject, bundle: Bundle<Partial<AddInput>>) {
  const { list = '', mobile = '', country } = bundle.inputData;
  const contact = await findContactByMobile(z, bundle, mobile, country);
  if (contact === null) throw new z.errors.Error(`No contact has the number ${mobile}: add it first (Create or Update Contact)`, 'not_found', 404);
  const result = await callAccount<Record<string, unknown>>(z, bundle, { method: 'POST', path: `/lists/${encodeURIComponent(list)}/contacts`, body: { contactIds: [contact.id] } });
  return { ...result, id: `${list}:${contact.id}`, listId: list, contactId: contact.id };
}

export const addToList = {
  key: 'add_to_list',
  noun: 'List Member',
  display: { label: 'Add Contact to List', description: 'Adds a contact, found by mobile number, to one of your lists.' },
  operation: {
    inputFields: [
      { key: 'list', label: 'List', required: true, dynamic: 'list.id.name' },
      { key: 'mobile', label: 'Mobile Number', required: true, helpText: "The contact's number, best written with + and the country code." },
      { key: 'country', label: 'Country', required: false, helpText: 'Two letters (US, GB ...) for a number written without +.' },
    ],
    perform: add,
    sample: { id: 'list:contact', listId: '0194b2a0-0000-7000-8000-000000000004', contactId: '0194b2a0-0000-7000-8000-000000000002' },
  },
};
