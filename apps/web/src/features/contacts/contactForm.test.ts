import type { Contact } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { contactBodyOf, contactFormSchema, DUPLICATE_ATTRIBUTE_MESSAGE, formValuesOf, splitTags } from './contactForm';

const contact: Contact = {
  id: '0190c0de-0000-7000-8000-000000000001',
  firstName: 'Ada',
  lastName: 'Lovelace',
  mobile: { number: '+447400123456', country: 'GB' },
  email: 'ada@example.test',
  tags: [
    { tag: 'vip', visible: true },
    { tag: '_sync', visible: false },
  ],
  attributes: { city: 'London', legacy: 'x' },
  valid: true,
  created: { at: '2026-01-01T00:00:00.000Z' },
  updated: { at: '2026-01-01T00:00:00.000Z' },
  lists: [],
};

describe('the contact form', () => {
  it("starts a new contact in the account's country with a row per attribute name", () => {
    expect(formValuesOf(null, 'CA', ['city', 'plan'])).toEqual({
      firstName: '',
      lastName: '',
      number: '',
      country: 'CA',
      email: '',
      tags: [],
      attributes: [
        { name: 'city', value: '' },
        { name: 'plan', value: '' },
      ],
    });
  });

  it("fills an existing contact's values, keeping attributes the account list lacks", () => {
    const values = formValuesOf(contact, 'US', ['plan', 'city']);
    expect(values).toMatchObject({ number: '+447400123456', country: 'GB', email: 'ada@example.test', tags: ['vip', '_sync'] });
    expect(values.attributes).toEqual([
      { name: 'plan', value: '' },
      { name: 'city', value: 'London' },
      { name: 'legacy', value: 'x' },
    ]);
  });

  it('sends what the API takes: no empty attributes, null for no e-mail, tags once', () => {
    const parsed = contactFormSchema.parse({
      ...formValuesOf(contact, 'US', ['plan', 'city']),
      firstName: ' Ada ',
      email: '  ',
      tags: ['vip', 'VIP', 'new'],
    });
    expect(contactBodyOf(parsed)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      mobile: { number: '+447400123456', country: 'GB' },
      email: null,
      tags: ['vip', 'new'],
      attributes: { city: 'London', legacy: 'x' },
    });
  });

  it('checks with the product messages, but lets an invalid number through', () => {
    const values = formValuesOf(null, 'US', []);
    const problems = (input: object) =>
      contactFormSchema.safeParse({ ...values, ...input }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(problems({ number: ' ' })).toEqual(['number: Number is missing']);
    expect(problems({ number: '123', email: 'nope' })).toEqual(['email: Invalid email address']);
    expect(problems({ number: '123', attributes: [{ name: 'bad name', value: '1' }] })).toEqual([
      'attributes.0.name: Use letters, digits and underscores, starting with a letter',
    ]);
    expect(problems({ number: '123', attributes: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] })).toEqual([
      `attributes.1.name: ${DUPLICATE_ATTRIBUTE_MESSAGE}`,
    ]);
    expect(problems({ number: '123' })).toEqual([]);
  });

  it('splits typed tags at commas', () => {
    expect(splitTags(' a, b ,,c ')).toEqual(['a', 'b', 'c']);
  });
});
