import { v7 as uuidv7 } from 'uuid';
import {
  IMPORT_SYNC_ROWS_MAX,
  importApiMessages,
  importRowIdentifiers,
  type ContactImport,
  type ContactImportRows,
  type ContactUpload,
  type ContactUploadError,
  type ImportDefaults,
  type ImportPlan,
  type ImportMapping,
  type MergeStrategy,
} from '@parley/shared';
import type { Db, Tx } from '../../platform/db/client.js';
import { contactImports } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { withoutNulls } from '../../platform/http/withoutNulls.js';
import { writeContactBatch, type ImportedContact } from './contactImporterBatch.js';
import { ImportRowPipeline, ImportTally } from './contactImporterRows.js';
import { accountImportContext, badImport, batchOptions, planOf, resolveMapping } from './contactImporterSetup.js';
import { presentContact } from './contactPresenter.js';
import { ImportFileError, readCsvTable, type CsvRow } from './import/csvRows.js';
import { contactImportColumns, presentContactImport } from './import/presenter.js';
import { findContactsByMobile, heldMobileNumbers } from './queries.js';

/**
 * Imports answered at once (docs/decisions.md, Contact imports): rows sent as JSON, and a CSV file sent to
 * POST .../contacts as the hosted product's API takes it. Up to IMPORT_SYNC_ROWS_MAX rows in one transaction,
 * through the same row rules and batch writer as the background import, recorded as a completed import
 * (so it shows with the others and announces itself like them).
 */

/** What a CSV file imported in one call is recorded as; the call names no file. */
export const CSV_AT_ONCE_FILE_NAME = 'contacts.csv';

interface Caller {
  readonly accountId: string;
  readonly userId: string | null;
  readonly strategy: MergeStrategy;
}

interface RowsInput extends Caller {
  readonly fileName: string;
  readonly fileSize: number;
  readonly header: readonly string[];
  readonly rows: readonly CsvRow[];
  readonly mapping?: ImportMapping | undefined;
  readonly defaults?: ImportDefaults | undefined;
}

interface Imported {
  readonly record: ContactImport;
  readonly plan: ImportPlan;
  /** The rows that went in, one per number. */
  readonly written: readonly ImportedContact[];
  /** The numbers of `written` that a contact of the account held before. */
  readonly held: ReadonlySet<string>;
}

/** Reads, writes and records the rows in the caller's transaction; a mapping refused changes nothing. */
async function importRows(tx: Tx, input: RowsInput): Promise<Imported> {
  const context = await accountImportContext(tx, input.accountId);
  const resolved = resolveMapping(input.header, input.mapping, input.defaults, context);
  const plan = planOf(resolved, context);
  const pipeline = new ImportRowPipeline(plan, context.lists, new ImportTally(), input.rows.length + 1);
  for (const { row, values } of input.rows) pipeline.accept(row, values);
  const written = pipeline.take();
  const held = await heldMobileNumbers(
    tx,
    input.accountId,
    written.map((w) => w.contact.mobile.number),
  );
  await writeContactBatch(tx, batchOptions(input.accountId, input.strategy, resolved), written);
  const result = pipeline.tally.snapshot();
  const now = new Date();
  const [row] = await tx
    .insert(contactImports)
    .values({
      id: uuidv7(),
      accountId: input.accountId,
      userId: input.userId,
      status: 'completed',
      fileName: input.fileName,
      file: null,
      fileSize: input.fileSize,
      mergeStrategy: input.strategy,
      mapping: resolved.mapping,
      defaults: resolved.defaults,
      totalRows: input.rows.length,
      processedRows: input.rows.length,
      submitted: result.submitted,
      success: result.success,
      missingMobile: result.missingMobile,
      duplicates: result.duplicates,
      errors: result.errors,
      startedAt: now,
      finishedAt: now,
    })
    .returning(contactImportColumns);
  if (!row) throw new Error('the import insert returned nothing');
  const record = presentContactImport(row);
  await publishEvent(tx, { type: 'contactsImported', accountId: input.accountId, data: { import: record } });
  return { record, plan, written, held };
}

/** JSON rows (objects keyed like CSV headers) as header and cells, in the order keys first appear; data[0] is row 1. */
function rowsAsTable(data: ContactImportRows['data']): { header: string[]; rows: CsvRow[] } {
  const header: string[] = [];
  const index = new Map<string, number>();
  for (const item of data) {
    for (const key of Object.keys(item)) {
      if (!index.has(key)) {
        index.set(key, header.length);
        header.push(key);
      }
    }
  }
  const cell = (v: string | number | boolean | null | undefined | string[]): string =>
    v === null || v === undefined ? '' : Array.isArray(v) ? v.join(',') : String(v);
  const rows = data.map((item, i) => ({ row: i + 1, values: header.map((key) => cell(item[key])) }));
  return { header, rows };
}

/** POST .../contacts/import: up to IMPORT_SYNC_ROWS_MAX rows sent as JSON; answers the finished import. */
export async function importContactRows(db: Db, input: Caller & { body: ContactImportRows }): Promise<ContactImport> {
  const { header, rows } = rowsAsTable(input.body.data);
  if (rows.length === 0) throw badImport('data: Must select 1 or more');
  const { record } = await db.transaction((tx) =>
    importRows(tx, { ...input, fileName: 'JSON rows', fileSize: 0, header, rows, mapping: input.body.mapping, defaults: input.body.defaults }),
  );
  return record;
}

/** A row that did not go in, named as the file names it (what it leaves empty is left out). */
function uploadError(error: { row: number; reason: string }, values: readonly string[] | undefined, plan: ImportPlan): ContactUploadError {
  const given = importRowIdentifiers(values ?? [], plan);
  const text = (v: string): string | null => (v === '' ? null : v);
  return withoutNulls({
    row: error.row,
    firstName: text(given.firstName),
    lastName: text(given.lastName),
    mobile: given.mobile === '' ? null : { number: given.mobile },
    email: text(given.email),
    error: { description: error.reason },
  });
}

/**
 * POST .../contacts with a text/csv body: the file imported in one call, answered as the hosted product's
 * ContactUploadResponse. A file that cannot be read, has no rows or more than IMPORT_SYNC_ROWS_MAX, or leaves
 * the mobile without a column is refused (400) and nothing is written.
 */
export async function importContactsCsvAtOnce(db: Db, input: Caller & { file: Buffer }): Promise<ContactUpload> {
  let table: Awaited<ReturnType<typeof readCsvTable>>;
  try {
    table = await readCsvTable(input.file, IMPORT_SYNC_ROWS_MAX, importApiMessages.tooManyRows);
  } catch (error) {
    if (error instanceof ImportFileError) throw badImport(error.message);
    throw error;
  }
  const valuesOf = new Map(table.rows.map((r) => [r.row, r.values]));
  return db.transaction(async (tx) => {
    const { record, plan, written, held } = await importRows(tx, {
      ...input,
      fileName: CSV_AT_ONCE_FILE_NAME,
      fileSize: input.file.length,
      header: table.header,
      rows: table.rows,
    });
    const numbers = written.map((w) => w.contact.mobile.number);
    const contacts = await findContactsByMobile(tx, input.accountId, numbers);
    const { result } = record;
    return {
      importId: record.id,
      submitted: result.submitted,
      success: result.success,
      inserted: numbers.filter((n) => !held.has(n)).length,
      updated: numbers.filter((n) => held.has(n)).length,
      missingMobile: result.missingMobile,
      duplicates: result.duplicates,
      errors: result.errors.map((e) => uploadError(e, valuesOf.get(e.row), plan)),
      contacts: contacts.map(presentContact),
    };
  });
}
