import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import { CONTACT_ATTRIBUTES_MAX, CONTACT_ATTRIBUTE_NAME_MAX, isValidAttributeName } from './api/contacts.js';
import {
  camelCaseHeader,
  headerKey,
  isImportField,
  knownColumns,
  type ImportField,
} from './contactImportFormats.js';
import { validationMessages } from './validation.js';

/**
 * Contact import (docs/decisions.md, Contact imports): the file's columns, how each
 * is mapped (to a contact field, to a custom attribute, or ignored), defaults, and the check that every
 * mandatory field is fed. The wizard (papaparse) and the server (csv-parse) share all of it.
 */

export * from './contactImportFormats.js';
export * from './contactImportText.js';

/** Mobile and country are required; country may come from a default instead of a column. */
export const mandatoryImportFields = ['mobile', 'country'] as const satisfies readonly ImportField[];

export const importFieldLabels: Record<ImportField, string> = {
  mobile: 'Mobile',
  firstName: 'First Name',
  lastName: 'Last Name',
  email: 'Email',
  country: 'Country',
  tags: 'Tags',
  listId: 'List',
  listOptIn: 'List Opt In',
};

/** Fields a default can stand in for (a default mobile would give every row the same number). */
export const defaultableImportFields = ['firstName', 'lastName', 'email', 'country', 'tags', 'listId', 'listOptIn'] as const;

export const importMappingMessages = {
  missingMandatory: (attribute: string) => `Missing Mandatory Field: You must specify a field mapping for ${attribute}`,
  mappedTwice: (target: string) => `Only one column can be mapped to the attribute ${target}`,
  unknownColumn: (column: string) => `The file has no column named ${column}`,
  badTarget: (target: string) =>
    `${target} is not a contact field or a valid attribute name (a letter, then letters, digits or underscores)`,
  tooManyAttributes: `At most ${CONTACT_ATTRIBUTES_MAX} columns can become custom attributes`,
  badDefault: (target: string) => `${target} cannot have a default`,
  badCountry: validationMessages.phoneCountryInvalid,
} as const;

/** Column → field or attribute name; null leaves the column out. */
export type ImportMapping = Record<string, string | null>;
/** Field or attribute → the value used when a row's cell is empty (or the file has no such column). */
export type ImportDefaults = Record<string, string>;

export const importMappingSchema = z
  .record(z.string().max(500), z.string().trim().max(CONTACT_ATTRIBUTE_NAME_MAX).nullable())
  .meta({ id: 'ContactImportMapping', description: 'CSV column → contact field or attribute name; null ignores the column.' });

export const importDefaultsSchema = z
  .record(z.string().max(CONTACT_ATTRIBUTE_NAME_MAX), z.string().trim().max(1000))
  .meta({ id: 'ContactImportDefaults', description: 'Field or attribute → value for rows that leave it empty.' });

/**
 * The file's header as column names: trimmed, a stray byte-order mark dropped, an empty header named
 * "Column N", and a repeated one numbered ("Phone (2)") so each column has a name of its own.
 */
export function importColumnNames(header: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return header.map((raw, i) => {
    const base = raw.replace(/^\uFEFF/, '').trim() || `Column ${i + 1}`;
    const count = (seen.get(base.toLowerCase()) ?? 0) + 1;
    seen.set(base.toLowerCase(), count);
    return count === 1 ? base : `${base} (${count})`;
  });
}

/** The custom attribute a column becomes: its camel-cased header, or null when that is no valid name. */
export function attributeNameForColumn(column: string): string | null {
  let name = camelCaseHeader(column);
  if (/^[0-9]/.test(name)) name = `column${name}`;
  name = name.slice(0, CONTACT_ATTRIBUTE_NAME_MAX);
  return isValidAttributeName(name) ? name : null;
}

/**
 * The mapping the wizard starts from. Each field goes to the columns that name it most plainly (a
 * "Mobile Phone" column over a plain "Phone"): when several are equally plain ("Phone : mobile" and
 * "Phone : iPhone") each row takes the first of them that is not empty. Other columns that could feed
 * the field, and the columns an export writes for its own bookkeeping, are left out. Every other column
 * becomes a custom attribute named after its header.
 */
export function autoMapColumns(columns: readonly string[]): ImportMapping {
  const mapping: ImportMapping = {};
  const best = new Map<ImportField, { columns: string[]; rank: number }>();
  const usedAttributes = new Set<string>();
  for (const column of columns) {
    const key = headerKey(column);
    const known = knownColumns.get(key);
    mapping[column] = null;
    if (known !== undefined) {
      if ('field' in known) {
        const current = best.get(known.field);
        if (current === undefined || known.rank < current.rank) best.set(known.field, { columns: [column], rank: known.rank });
        else if (known.rank === current.rank) current.columns.push(column);
      }
      continue;
    }
    const name = attributeNameForColumn(column);
    if (name === null) continue;
    let unique = name;
    for (let n = 2; usedAttributes.has(unique.toLowerCase()); n += 1) unique = `${name}${n}`;
    usedAttributes.add(unique.toLowerCase());
    mapping[column] = unique;
  }
  for (const [target, { columns: fed }] of best) for (const column of fed) mapping[column] = target;
  return mapping;
}

const isBlank = (v: string | undefined): boolean => v === undefined || v.trim() === '';

/**
 * The first problem with a mapping, in the words the wizard shows, or null. Mandatory fields first
 * (the product's message), then a field or attribute fed twice, then names.
 */
export function checkImportMapping(
  columns: readonly string[],
  mapping: ImportMapping,
  defaults: ImportDefaults,
): string | null {
  const targets = new Map<string, string>();
  for (const [column, target] of Object.entries(mapping)) {
    if (!columns.includes(column)) return importMappingMessages.unknownColumn(column);
    if (target === null || target === '') continue;
    if (!isImportField(target) && !isValidAttributeName(target)) return importMappingMessages.badTarget(target);
    targets.set(target.toLowerCase(), column);
  }
  for (const field of mandatoryImportFields) {
    const mapped = Object.values(mapping).some((t) => t === field);
    if (!mapped && (field === 'mobile' || isBlank(defaults[field]))) return importMappingMessages.missingMandatory(field);
  }
  // A field may be fed by several columns (the first cell that is not empty wins); an attribute by one.
  const counts = new Map<string, number>();
  for (const target of Object.values(mapping)) {
    if (target === null || target === '' || isImportField(target)) continue;
    const k = target.toLowerCase();
    counts.set(k, (counts.get(k) ?? 0) + 1);
    if ((counts.get(k) ?? 0) > 1) return importMappingMessages.mappedTwice(target);
  }
  const attributeColumns = Object.values(mapping).filter((t) => t !== null && t !== '' && !isImportField(t)).length;
  if (attributeColumns > CONTACT_ATTRIBUTES_MAX) return importMappingMessages.tooManyAttributes;
  for (const [target, value] of Object.entries(defaults)) {
    if (isBlank(value)) continue;
    if (target === 'mobile') return importMappingMessages.badDefault(target);
    if (!isImportField(target) && !isValidAttributeName(target)) return importMappingMessages.badTarget(target);
    if (target === 'country' && countryCodeOf(value) === null) return importMappingMessages.badCountry;
  }
  return null;
}

/**
 * Fills the mapping for columns it does not name from the automatic one (API callers send only changes).
 * A field may take several columns, so naming another column for it adds that column; an attribute takes
 * one, so the column the automatic mapping gave it to loses it.
 */
export function completeImportMapping(columns: readonly string[], given: ImportMapping | undefined): ImportMapping {
  const auto = autoMapColumns(columns);
  if (given === undefined) return auto;
  const merged: ImportMapping = { ...auto };
  const claimed = new Set(
    Object.values(given)
      .filter((t): t is string => t !== null && t !== '' && !isImportField(t))
      .map((t) => t.toLowerCase()),
  );
  for (const column of columns) {
    if (column in given) continue;
    const target = merged[column];
    if (target !== null && target !== undefined && claimed.has(target.toLowerCase())) merged[column] = null;
  }
  for (const [column, target] of Object.entries(given)) merged[column] = target === '' ? null : target;
  return merged;
}

// ---------------------------------------------------------------------------------------------------
// Country cells: ISO codes, or English names as spreadsheets spell them.

const countryAliases: Record<string, string> = {
  usa: 'US',
  us: 'US',
  america: 'US',
  unitedstatesofamerica: 'US',
  uk: 'GB',
  greatbritain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  northernireland: 'GB',
};

let countryNames: Map<string, string> | null = null;

function countryNameTable(): Map<string, string> {
  if (countryNames !== null) return countryNames;
  const table = new Map<string, string>();
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  for (let a = 65; a <= 90; a += 1) {
    for (let b = 65; b <= 90; b += 1) {
      const code = String.fromCharCode(a, b);
      if (!isSupportedCountry(code)) continue;
      const name = names.of(code);
      if (name !== undefined && name !== code) table.set(headerKey(name), code);
    }
  }
  countryNames = table;
  return table;
}

/** An ISO 3166 alpha-2 code from a cell ('gb', 'United Kingdom', 'UK'), or null when it names no country. */
export function countryCodeOf(cell: string): string | null {
  const value = cell.trim();
  if (value === '') return null;
  if (/^[A-Za-z]{2}$/.test(value)) {
    const code = value.toUpperCase();
    if (isSupportedCountry(code)) return code;
  }
  const key = headerKey(value);
  return countryAliases[key] ?? countryNameTable().get(key) ?? null;
}

