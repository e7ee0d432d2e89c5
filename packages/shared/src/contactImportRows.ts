import {
  CONTACT_ATTRIBUTE_VALUE_MAX,
  CONTACT_EMAIL_MAX,
  CONTACT_NAME_MAX,
  CONTACT_TAG_MAX,
  CONTACT_TAGS_MAX,
  uniqueTags,
} from './api/contacts.js';
import { countryCodeOf, type ImportDefaults, type ImportMapping } from './contactImport.js';
import { headerKey, isImportField, knownColumns, type ImportField } from './contactImportFormats.js';
import { isMissingMobile, normaliseContactMobile, type ContactMobile } from './contactMobile.js';
import { hasNulCharacter, validationMessages } from './validation.js';

/**
 * One CSV row → one contact, with the contact dialog's rules (packages/shared/src/api/contacts.ts): names
 * up to 100 characters, a valid e-mail, tags up to 50 characters, attribute values up to 1000. A number
 * that is not valid is kept (valid: false), as the contact dialog keeps it; a row without a number is not
 * a contact. Pure and fast: the server runs it 100,000 times per import.
 */

/** A mapping and defaults compiled against the file's columns, once per import. */
export interface ImportPlan {
  readonly columnCount: number;
  /** The columns feeding each field, plainest name first: a row takes the first that is not empty (tags: all). */
  readonly fields: Readonly<Partial<Record<ImportField, readonly number[]>>>;
  readonly attributes: readonly { readonly index: number; readonly name: string }[];
  readonly defaults: Readonly<Partial<Record<ImportField, string>>>;
  readonly attributeDefaults: Readonly<Record<string, string>>;
  /** The account's default country, for numbers whose row names none (then US). */
  readonly defaultCountry: string;
}

export function compileImportPlan(
  columns: readonly string[],
  mapping: ImportMapping,
  defaults: ImportDefaults,
  defaultCountry: string,
): ImportPlan {
  const fields: Partial<Record<ImportField, number[]>> = {};
  const attributes: { index: number; name: string }[] = [];
  columns.forEach((column, index) => {
    const target = mapping[column];
    if (target === null || target === undefined || target === '') return;
    if (isImportField(target)) (fields[target] ??= []).push(index);
    else attributes.push({ index, name: target });
  });
  // Several columns for one field: the plainest first ("Mobile Phone Number" before "Phone Number").
  const rank = (f: ImportField, index: number): number => {
    const known = knownColumns.get(headerKey(columns[index] ?? ''));
    return known !== undefined && 'field' in known && known.field === f ? known.rank : 50;
  };
  for (const [f, indexes] of Object.entries(fields) as [ImportField, number[]][]) {
    indexes.sort((a, b) => rank(f, a) - rank(f, b) || a - b);
  }
  const fieldDefaults: Partial<Record<ImportField, string>> = {};
  const attributeDefaults: Record<string, string> = {};
  for (const [target, value] of Object.entries(defaults)) {
    const v = value.trim();
    if (v === '') continue;
    if (isImportField(target)) fieldDefaults[target] = v;
    else attributeDefaults[target] = v;
  }
  return { columnCount: columns.length, fields, attributes, defaults: fieldDefaults, attributeDefaults, defaultCountry };
}

export interface PreparedContact {
  mobile: ContactMobile;
  firstName: string;
  lastName: string;
  email: string | null;
  tags: string[];
  attributes: Record<string, string>;
  /** The list cell (an id or a name), resolved by the server against the account's lists. */
  list: string | null;
  listOptIn: boolean;
}

export type PreparedRow =
  | { kind: 'contact'; contact: PreparedContact }
  /** Every cell empty: not a row at all (a spreadsheet's trailing ",,,," line). */
  | { kind: 'blank' }
  | { kind: 'missingMobile' }
  | { kind: 'error'; reason: string };

export const importRowMessages = {
  missingMobile: validationMessages.phoneNumberMissing,
  spreadsheetNumber: (v: string) =>
    `The mobile number was changed by a spreadsheet into ${v}: format the column as text and export the file again`,
  nameTooLong: (label: string) => `${label}: At most ${CONTACT_NAME_MAX} characters`,
  email: validationMessages.email,
  tagTooLong: (tag: string) => `The tag "${tag.slice(0, 60)}" is longer than ${CONTACT_TAG_MAX} characters`,
  tooManyTags: `At most ${CONTACT_TAGS_MAX} tags`,
  attributeTooLong: (name: string) => `${name}: At most ${CONTACT_ATTRIBUTE_VALUE_MAX} characters`,
  listOptIn: (v: string) => `listOptIn must be true or false, not "${v.slice(0, 40)}"`,
  extraValues: (values: number, columns: number) => `The row has ${values} values but the header names ${columns} columns`,
  listNotFound: (v: string) => `List not found: ${v.slice(0, 100)}`,
  nulCharacter: 'The row holds the NUL character (\\u0000), which no text may contain',
  /** The first row with a number goes in; later rows with the same number are duplicates. */
  duplicate: (firstRow: number) => `Duplicate: the same number as row ${firstRow}`,
} as const;

// The same pattern as z.email() (zod 4), without a schema parse per row.
const emailPattern = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const spreadsheetNumber = /^[0-9](?:[.,][0-9]+)?E\+?[0-9]+$/i;
/** Google Contacts puts several values in one cell: "+1 415 ... ::: +1 650 ...". */
const firstOf = (cell: string): string => {
  const at = cell.indexOf(':::');
  return at < 0 ? cell : cell.slice(0, at).trim();
};

const truthy = new Set(['true', 'yes', 'y', '1', 'x', 'on', 'optin', 'optedin', 'subscribed']);
const falsy = new Set(['false', 'no', 'n', '0', 'off', 'optout', 'optedout', 'unsubscribed']);

/** Tags from one cell: separated by , ; | or Google's ":::", quotes around each dropped (Mailchimp). */
export function splitTagCell(cell: string): string[] {
  const out: string[] = [];
  for (const part of cell.split(/:::|[,;|]/)) {
    let tag = part.trim().replace(/^"+|"+$/g, '').trim();
    // Google's system labels: "* myContacts" is every contact, "* starred" is the star.
    tag = tag.replace(/^\*\s*/, '');
    if (tag === '' || tag === 'myContacts') continue;
    out.push(tag);
  }
  return out;
}

/** A field's value in a row: the first of its columns that is not empty, else its default, else ''. */
function fieldCell(values: readonly string[], plan: ImportPlan, f: ImportField): string {
  for (const index of plan.fields[f] ?? []) {
    const v = (values[index] ?? '').trim();
    if (v !== '') return v;
  }
  return plan.defaults[f] ?? '';
}

/** What names a row (names, number, e-mail) as the file gives it, checked or not: how a refused row is shown back. */
export interface ImportRowIdentifiers {
  firstName: string;
  lastName: string;
  mobile: string;
  email: string;
}

export function importRowIdentifiers(values: readonly string[], plan: ImportPlan): ImportRowIdentifiers {
  return {
    firstName: fieldCell(values, plan, 'firstName'),
    lastName: fieldCell(values, plan, 'lastName'),
    mobile: firstOf(fieldCell(values, plan, 'mobile')),
    email: firstOf(fieldCell(values, plan, 'email')),
  };
}

/** Reads one row. `values` are the row's cells as parsed (untrimmed). */
export function prepareImportRow(values: readonly string[], plan: ImportPlan): PreparedRow {
  let blank = true;
  for (const v of values) {
    if (v.trim() !== '') {
      blank = false;
      break;
    }
  }
  if (blank) return { kind: 'blank' };
  if (values.some(hasNulCharacter)) return { kind: 'error', reason: importRowMessages.nulCharacter };
  if (values.length > plan.columnCount) {
    for (let i = plan.columnCount; i < values.length; i += 1) {
      if ((values[i] ?? '').trim() !== '') return { kind: 'error', reason: importRowMessages.extraValues(values.length, plan.columnCount) };
    }
  }
  const cell = (f: ImportField): string => fieldCell(values, plan, f);

  let number = firstOf(cell('mobile'));
  if (number.startsWith("'")) number = number.slice(1).trim(); // Excel's "keep as text" prefix
  if (isMissingMobile(number)) return { kind: 'missingMobile' };
  if (spreadsheetNumber.test(number)) return { kind: 'error', reason: importRowMessages.spreadsheetNumber(number) };

  const firstName = cell('firstName');
  if (firstName.length > CONTACT_NAME_MAX) return { kind: 'error', reason: importRowMessages.nameTooLong('firstName') };
  const lastName = cell('lastName');
  if (lastName.length > CONTACT_NAME_MAX) return { kind: 'error', reason: importRowMessages.nameTooLong('lastName') };

  const emailCell = firstOf(cell('email')).toLowerCase();
  if (emailCell !== '' && (emailCell.length > CONTACT_EMAIL_MAX || !emailPattern.test(emailCell))) {
    return { kind: 'error', reason: importRowMessages.email };
  }

  const tagCells = (plan.fields.tags ?? []).map((index) => (values[index] ?? '').trim()).filter((v) => v !== '');
  if (tagCells.length === 0 && plan.defaults.tags !== undefined) tagCells.push(plan.defaults.tags);
  let tags: string[] = [];
  if (tagCells.length > 0) {
    const split = tagCells.flatMap(splitTagCell);
    for (const tag of split) if (tag.length > CONTACT_TAG_MAX) return { kind: 'error', reason: importRowMessages.tagTooLong(tag) };
    tags = uniqueTags(split);
    if (tags.length > CONTACT_TAGS_MAX) return { kind: 'error', reason: importRowMessages.tooManyTags };
  }

  const attributes: Record<string, string> = {};
  for (const [name, value] of Object.entries(plan.attributeDefaults)) attributes[name] = value;
  for (const { index, name } of plan.attributes) {
    const v = (values[index] ?? '').trim();
    if (v === '') continue;
    if (v.length > CONTACT_ATTRIBUTE_VALUE_MAX) return { kind: 'error', reason: importRowMessages.attributeTooLong(name) };
    attributes[name] = v;
  }

  const optInCell = cell('listOptIn');
  let listOptIn = false;
  if (optInCell !== '') {
    const key = optInCell.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (truthy.has(key)) listOptIn = true;
    else if (!falsy.has(key)) return { kind: 'error', reason: importRowMessages.listOptIn(optInCell) };
  }
  const list = cell('listId');

  const countryCell = cell('country');
  const country = countryCell === '' ? null : (countryCodeOf(countryCell) ?? countryCell);
  return {
    kind: 'contact',
    contact: {
      mobile: normaliseContactMobile(number, country, plan.defaultCountry),
      firstName,
      lastName,
      email: emailCell === '' ? null : emailCell,
      tags,
      attributes,
      list: list === '' ? null : list,
      listOptIn,
    },
  };
}
