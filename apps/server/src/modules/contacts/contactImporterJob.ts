import { eq } from 'drizzle-orm';
import { importColumnNames, type ContactImport, type ContactImportResult, type ImportDefaults, type ImportMapping } from '@parley/shared';
import { ImportFileError, isBlankRow, layoutOf, readCsvRows, scanCsv, type CsvLayout } from './import/csvRows.js';
import { contactImportColumns, presentContactImport, type ContactImportRecord } from './import/presenter.js';
import type { Database } from '../../platform/db/client.js';
import { contactImports, type ContactImportRow } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import { writeContactBatch, type ImportedContact } from './contactImporterBatch.js';
import { ImportRowPipeline, ImportTally } from './contactImporterRows.js';
import { accountImportContext, batchOptions, planOf, type ResolvedMapping } from './contactImporterSetup.js';

/**
 * The background half of a CSV import, run by the importContacts job (and by the benchmark). The file is
 * read twice: first through to the end, to count the rows and to refuse a file that is broken further
 * down (a quote never closed) before anything is written; then row by row, writing a batch at a time.
 * Each batch commits together with the import's counters and `processedRows`, so an attempt that dies
 * half way is resumed by the next one from the last committed batch, with the same counts.
 */

export const IMPORT_BATCH_SIZE = 5000;
const YIELD_EVERY_ROWS = 200;
/** Progress events go out at most this often (the last one always). */
const PROGRESS_EVERY_MS = 1000;

export interface RunOptions {
  readonly batchSize?: number;
  /** The clock progress events are throttled by. */
  readonly now?: () => number;
  /** Called after each batch has committed (the benchmark reports progress; tests stop an attempt here). */
  readonly onCommitted?: (processedRows: number) => void;
}

type Counters = Pick<ContactImportRow, 'processedRows' | 'submitted' | 'success' | 'missingMobile' | 'duplicates' | 'errors'>;

const countersOf = (processedRows: number, r: ContactImportResult): Counters => ({
  processedRows,
  submitted: r.submitted,
  success: r.success,
  missingMobile: r.missingMobile,
  duplicates: r.duplicates,
  errors: r.errors,
});

/** The data rows after the header (the first row that is not blank), blank ones included. */
function countDataRows(layout: CsvLayout): number {
  const { headerRow, lastRow } = scanCsv(layout);
  return headerRow === 0 ? 0 : lastRow - headerRow;
}

/** Ends an import that cannot go on, with the reason; nothing of it was written. */
async function fail(database: Database, base: ContactImportRecord, message: string): Promise<ContactImport> {
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(contactImports)
      .set({ status: 'failed', errorMessage: message, file: null, finishedAt: new Date() })
      .where(eq(contactImports.id, base.id))
      .returning(contactImportColumns);
    const presented = presentContactImport(row ?? base);
    await publishEvent(tx, { type: 'contactsImported', accountId: base.accountId, data: { import: presented } });
    return presented;
  });
}

/** Marks an import failed after its last attempt failed for a reason other than its file. */
export async function abandonContactImport(database: Database, importId: string, message: string): Promise<void> {
  const [base] = await database.db.select(contactImportColumns).from(contactImports).where(eq(contactImports.id, importId)).limit(1);
  if (!base || base.status === 'completed' || base.status === 'failed') return;
  await fail(database, base, message);
}

export async function runContactImport(database: Database, importId: string, options: RunOptions = {}): Promise<ContactImport | null> {
  const now = options.now ?? Date.now;
  const [loaded] = await database.db.select().from(contactImports).where(eq(contactImports.id, importId)).limit(1);
  if (!loaded) return null;
  if (loaded.status === 'completed' || loaded.status === 'failed') return presentContactImport(loaded);
  if (loaded.file === null) return fail(database, loaded, 'The uploaded file is no longer available. Upload it again.');

  let layout: CsvLayout;
  let totalRows: number;
  try {
    layout = layoutOf(loaded.file);
    totalRows = countDataRows(layout);
  } catch (error) {
    if (error instanceof ImportFileError) return fail(database, loaded, error.message);
    throw error;
  }
  const [running] = await database.db
    .update(contactImports)
    .set({ status: 'running', totalRows, startedAt: loaded.startedAt ?? new Date() })
    .where(eq(contactImports.id, importId))
    .returning(contactImportColumns);
  const base = running ?? loaded;

  const context = await accountImportContext(database.db, base.accountId);
  const mapping = base.mapping as ImportMapping;
  const defaults = base.defaults as ImportDefaults;
  const resumeAfter = base.processedRows;
  const tally = new ImportTally({
    submitted: base.submitted,
    success: base.success,
    missingMobile: base.missingMobile,
    duplicates: base.duplicates,
    errors: Array.isArray(base.errors) ? (base.errors as ContactImportResult['errors']) : [],
  });
  const batchSize = options.batchSize ?? IMPORT_BATCH_SIZE;
  let pipeline: ImportRowPipeline | null = null;
  let lastEventAt = 0;
  // The batch being written while the next is read (an object: the closures below replace it).
  const pending: { write: Promise<void> | null } = { write: null };

  const writeOptions = batchOptions(base.accountId, base.mergeStrategy, { columns: [], mapping, defaults });
  const commit = async (batch: readonly ImportedContact[], processedRows: number, result: ContactImportResult, final: boolean) => {
    const done = final ? { status: 'completed' as const, file: null, finishedAt: new Date() } : {};
    const record = database.db
      .update(contactImports)
      .set({ ...countersOf(processedRows, result), ...done })
      .where(eq(contactImports.id, importId))
      .getSQL();
    const announce = final || now() - lastEventAt >= PROGRESS_EVERY_MS;
    if (!announce) {
      // One statement, atomic on its own: the usual batch costs one round trip.
      await writeContactBatch(database.db, writeOptions, batch, record);
    } else {
      lastEventAt = now();
      await database.db.transaction(async (tx) => {
        await writeContactBatch(tx, writeOptions, batch, record);
        const [row] = await tx.select(contactImportColumns).from(contactImports).where(eq(contactImports.id, importId));
        if (!row) return;
        await publishEvent(tx, {
          type: final ? 'contactsImported' : 'contactImportProgress',
          accountId: base.accountId,
          data: { import: presentContactImport(row) },
        });
      });
    }
    options.onCommitted?.(processedRows);
  };
  // The next batch is read while the last one is written: parsing and PostgreSQL overlap.
  const flush = async (batch: readonly ImportedContact[], processedRows: number) => {
    const result = tally.snapshot();
    if (pending.write !== null) await pending.write;
    const writing = commit(batch, processedRows, result, false);
    // Awaited before the next batch or at the end; until then its failure must not go unhandled.
    writing.catch(() => undefined);
    pending.write = writing;
  };

  let headerRow = 0;
  let processed = 0;
  for await (const { row, values } of readCsvRows(layout)) {
    if (pipeline === null) {
      if (isBlankRow(values)) continue;
      headerRow = row;
      const resolved: ResolvedMapping = { columns: importColumnNames(values), mapping, defaults };
      pipeline = new ImportRowPipeline(planOf(resolved, context), context.lists, tally, batchSize);
      continue;
    }
    processed = row - headerRow;
    if (processed <= resumeAfter) {
      pipeline.replay(row, values);
      continue;
    }
    const batch = pipeline.accept(row, values);
    if (batch !== null) await flush(batch, processed);
    // Buffered rows come without a turn of the event loop; give one now and then, so the answers to the
    // batch being written are read as they arrive and PostgreSQL does not wait on this loop.
    else if (pending.write !== null && processed % YIELD_EVERY_ROWS === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (pending.write !== null) await pending.write;
  const last = pipeline?.take() ?? [];
  await commit(last, Math.max(processed, resumeAfter), tally.snapshot(), true);
  const [finished] = await database.db.select(contactImportColumns).from(contactImports).where(eq(contactImports.id, importId)).limit(1);
  return finished ? presentContactImport(finished) : null;
}
