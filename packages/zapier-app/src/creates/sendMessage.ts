import type { Bundle, ZObject } from 'zapier-platform-core';
import { callAccount } from '../parleyApi.js';

interface SendInput {
  to: string;
  text: string;
  from?: string;
  country?: string;
}

interface SendAnswer {
  messages: { id: string }[];
  requested: number;
  valid: number;
  estimatedPrice: number;
}

/** POST .../messages to one number (its contact found, or added with the send): the message queued. */
async function send(z: ZObject, bundle: Bundle<Partial<SendInput>>) {
  const { to = '', text = '', from, country } = bundle.inputData;
  const answer = await callAccount<SendAnswer>(z, bundle, {
    method: 'POST',
    path: '/messages',
    body: {
      contacts: [{ mobile: { number: to, ...(country ? { country: country.toUpperCase() } : {}) } }],
      template: text,
      ...(from ? { phoneNumberFilter: { group: from } } : {}),
    },
  });
  const [message] = answer.messages;
  if (message === undefined) throw new z.errors.Error('Parley did not queue the message', 'not_sent', 409);
  return { ...message, estimatedPrice: answer.estimatedPrice };
}

export const sendMessage = {
  key: 'send_message',
  noun: 'Message',
  display: { label: 'Send Message', description: 'Texts a number from your Parley account.' },
  operation: {
    inputFields: [
      { key: 'to', label: 'To Number', required: true, helpText: 'The mobile number, best written with + and the country code (+12025550143).' },
      { key: 'text', label: 'Message', required: true, type: 'text' as const, helpText: 'Up to 1,600 characters; map fields from earlier steps into it.' },
      { key: 'from', label: 'From Number', required: false, dynamic: 'phone_number.id.number', helpText: 'Left empty, the number the contact last talked to, else your oldest number.' },
      { key: 'country', label: 'Country', required: false, helpText: "Two letters (US, GB ...) for a number written without +; the account's country by default." },
    ],
    perform: send,
    sample: { id: '0194b2a0-0000-7000-8000-000000000001', message: 'Your order is ready.', outgoing: true, status: 'queued', phoneNumber: '+12025550100', estimatedPrice: 0.01 },
  },
};
