import type { Bundle, ZObject } from 'zapier-platform-core';
import { callAccount } from '../parleyApi.js';

/** Hidden triggers that fill the actions' dropdowns: the account's lists and its sending numbers. */

export const listDropdown = {
  key: 'list',
  noun: 'List',
  display: { label: 'Lists', description: "The account's lists.", hidden: true },
  operation: {
    perform: async (z: ZObject, bundle: Bundle) =>
      (await callAccount<{ id: string; name: string }[]>(z, bundle, { path: '/lists', params: { limit: 100 } })).map(({ id, name }) => ({ id, name })),
  },
};

export const phoneNumberDropdown = {
  key: 'phone_number',
  noun: 'Phone Number',
  display: { label: 'Phone Numbers', description: "The account's active numbers.", hidden: true },
  operation: {
    perform: async (z: ZObject, bundle: Bundle) =>
      (await callAccount<{ id: string; number: string; name: string; status: string }[]>(z, bundle, { path: '/phonenumbers', params: { limit: 100 } }))
        .filter((n) => n.status === 'active')
        .map(({ id, number, name }) => ({ id, number: name === '' ? number : `${number} (${name})` })),
  },
};
