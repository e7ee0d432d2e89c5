import { sql } from 'drizzle-orm';
import {
  importColumnNames,
  importRowMessages,
  prepareImportRow,
  type CampaignFieldMapping,
  type CampaignFileCell,
  type CampaignInvalidEntry,
  type ImportMapping,
} from '@parley/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { writeContactBatch, type ImportedContact } from '../contacts/index.js';
import { accountImportContext, batchOptions, planOf, resolveMapping } from '../contacts/index.js';

/*
 * The rows of a File Upload execution: each row goes through the contact importer's own rules
 * (prepareImportRow: the mobile normalised for its country, names, e-mail, tags, attributes, list) with the
 * campaign's field mappings, creates or updates its contact ('append': a cell left empty keeps what the
 * contact has), and becomes one recipient whose message is rendered from that contact. Rows without a
 * mobile, repeats of an earlier row's number and rows the rules refuse are left out with their reason.
 */

/** Contacts written per statement (the importer's batch size). */
const WRITE_BATCH = 5000;

export interface FileRecipient {
  /** rows[0] is row 1. */
  row: number;
  contactId: string;
  mobile: string;
  /** The list the row puts the contact on, if it names one: an opt-out of it leaves the row out. */
  listId: string | null;
  /** The row's mapped cells (column → value), kept with the recipient. */
  data: Record<string, string>;
}

const cellText = (value: CampaignFileCell | undefined): string =>
  value === null || value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value);

/** Rows as a header (keys in the order they first appear) and cells. */
function asTable(rows: readonly Record<string, CampaignFileCell>[]): { header: string[]; cells: string[][] } {
  const header: string[] = [];
  const index = new Map<string, number>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (index.has(key)) continue;
      index.set(key, header.length);
      header.push(key);
    }
  }
  return { header, cells: rows.map((row) => header.map((key) => cellText(row[key]))) };
}

/**
 * The importer's mapping from the campaign's: each mapped column the rows have feeds its field or attribute,
 * every other column is left out. A mapped column no row has is skipped (the mobile's absence is refused by
 * the mapping check with the wizard's message).
 */
function mappingOf(header: readonly string[], columns: readonly string[], fieldMappings: readonly CampaignFieldMapping[]): ImportMapping {
  const wanted = new Map(fieldMappings.map((m) => [m.column.trim(), m.field]));
  const mapping: ImportMapping = {};
  columns.forEach((column, i) => {
    mapping[column] = wanted.get(column) ?? wanted.get((header[i] ?? '').trim()) ?? null;
  });
  return mapping;
}

/**
 * Reads and writes the rows in the caller's transaction: contacts created or updated, and the recipients in
 * row order with the rows left out. Throws 400 (badImport) when the mapping cannot feed the mobile.
 */
export async function upsertFileContacts(
  tx: Tx,
  accountId: string,
  fieldMappings: readonly CampaignFieldMapping[],
  rows: readonly Record<string, CampaignFileCell>[],
): Promise<{ recipients: FileRecipient[]; invalid: CampaignInvalidEntry[] }> {
  const { header, cells } = asTable(rows);
  const columns = importColumnNames(header);
  const context = await accountImportContext(tx, accountId);
  const resolved = resolveMapping(header, mappingOf(header, columns, fieldMappings), {}, context);
  const plan = planOf(resolved, context);
  const mappedIndexes = resolved.columns.flatMap((column, i) => (resolved.mapping[column] ? [i] : []));

  const invalid: CampaignInvalidEntry[] = [];
  const left = (row: number, reason: CampaignInvalidEntry['reason'], description: string, mobile: string | null): void => {
    invalid.push({ reason, description, contact: null, mobile, row });
  };
  const accepted: (ImportedContact & { data: Record<string, string> })[] = [];
  const firstRowOf = new Map<string, number>();
  cells.forEach((values, i) => {
    const row = i + 1;
    const prepared = prepareImportRow(values, plan);
    switch (prepared.kind) {
      case 'blank':
        return;
      case 'missingMobile':
        left(row, 'missingMobile', importRowMessages.missingMobile, null);
        return;
      case 'error':
        left(row, 'badRow', prepared.reason, null);
        return;
      case 'contact': {
        const { contact } = prepared;
        const number = contact.mobile.number;
        const first = firstRowOf.get(number);
        if (first !== undefined) {
          left(row, 'duplicateRow', importRowMessages.duplicate(first), number);
          return;
        }
        let listId: string | null = null;
        if (contact.list !== null) {
          listId = context.lists.find(contact.list);
          if (listId === null) {
            left(row, 'badRow', importRowMessages.listNotFound(contact.list), number);
            return;
          }
        }
        firstRowOf.set(number, row);
        const data: Record<string, string> = {};
        for (const index of mappedIndexes) {
          const value = values[index] ?? '';
          if (value !== '') data[resolved.columns[index] ?? ''] = value;
        }
        accepted.push({ row, contact, listId, data });
        return;
      }
    }
  });

  const options = batchOptions(accountId, 'append', resolved);
  for (let at = 0; at < accepted.length; at += WRITE_BATCH) await writeContactBatch(tx, options, accepted.slice(at, at + WRITE_BATCH));

  const ids = new Map<string, string>();
  const numbers = accepted.map((a) => a.contact.mobile.number);
  for (let at = 0; at < numbers.length; at += WRITE_BATCH * 4) {
    const found = await queryRows<{ id: string; mobile: string }>(
      tx,
      sql`select id, mobile_number as mobile from contacts
           where account_id = ${accountId}
             and mobile_number in (select jsonb_array_elements_text(${JSON.stringify(numbers.slice(at, at + WRITE_BATCH * 4))}::jsonb))`,
    );
    for (const f of found) ids.set(f.mobile, f.id);
  }
  const recipients = accepted.map((a): FileRecipient => {
    const contactId = ids.get(a.contact.mobile.number);
    if (contactId === undefined) throw new Error(`the contact of row ${String(a.row)} was not written`);
    return { row: a.row, contactId, mobile: a.contact.mobile.number, listId: a.listId, data: a.data };
  });
  return { recipients, invalid: invalid.sort((a, b) => (a.row ?? 0) - (b.row ?? 0)) };
}
