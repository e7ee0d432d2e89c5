import {
  attributeNameSchema,
  CONTACT_NAME_MAX,
  contactEmailTextSchema,
  contactTagSchema,
  uniqueTags,
  validationMessages,
  type Contact,
  type CreateContactInput,
} from '@parley/shared';
import { z } from 'zod';

/** The contact dialog's fields: the Core tab, then the Attributes tab as rows. */
export interface ContactFormValues {
  firstName: string;
  lastName: string;
  number: string;
  country: string;
  email: string;
  tags: string[];
  attributes: { name: string; value: string }[];
}

export const DUPLICATE_ATTRIBUTE_MESSAGE = 'This attribute is already listed';

const name = z.string().trim().max(CONTACT_NAME_MAX, { message: `At most ${CONTACT_NAME_MAX} characters` });

/**
 * What the form checks before saving, with the API's own rules and messages. An invalid number is not an
 * error here: the contact is saved and shown as invalid (the field warns instead).
 */
export const contactFormSchema = z
  .object({
    firstName: name,
    lastName: name,
    number: z.string().trim().min(1, { message: validationMessages.phoneNumberMissing }),
    country: z.string(),
    email: contactEmailTextSchema,
    tags: z.array(contactTagSchema),
    attributes: z.array(z.object({ name: attributeNameSchema, value: z.string().max(1000, { message: 'At most 1000 characters' }) })),
  })
  .superRefine((values, ctx) => {
    const seen = new Set<string>();
    values.attributes.forEach((attribute, index) => {
      if (seen.has(attribute.name)) ctx.addIssue({ code: 'custom', message: DUPLICATE_ATTRIBUTE_MESSAGE, path: ['attributes', index, 'name'] });
      seen.add(attribute.name);
    });
  });

/**
 * The form for a contact (or a new one): every attribute name of the account gets a row, with the contact's
 * value or empty; the contact's own attributes come first in the account's order.
 */
export function formValuesOf(contact: Contact | null, defaultCountry: string, attributeNames: readonly string[]): ContactFormValues {
  const values = contact?.attributes ?? {};
  const names = [...attributeNames, ...Object.keys(values).filter((n) => !attributeNames.includes(n))];
  return {
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    number: contact?.mobile.number ?? '',
    country: contact?.mobile.country ?? defaultCountry,
    email: contact?.email ?? '',
    tags: contact?.tags.map((t) => t.tag) ?? [],
    attributes: names.map((n) => ({ name: n, value: values[n] ?? '' })),
  };
}

export type ContactFormOutput = z.output<typeof contactFormSchema>;

/** The body of POST or PUT: attributes without a value are left out (so a cleared one is removed). */
export function contactBodyOf(values: ContactFormOutput): CreateContactInput {
  const attributes: Record<string, string> = {};
  for (const { name: key, value } of values.attributes) if (value.trim() !== '') attributes[key] = value.trim();
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    mobile: { number: values.number, ...(values.country === '' ? {} : { country: values.country }) },
    email: values.email,
    tags: uniqueTags(values.tags),
    attributes,
  };
}

/** Tags typed with commas become several tags. */
export const splitTags = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
