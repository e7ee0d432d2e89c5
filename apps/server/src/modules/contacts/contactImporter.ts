import { v7 as uuidv7 } from 'uuid';
import {
  importFileMessages,
  type ContactImport,
  type ContactImportRows,
  type ContactImportUploadQuery,
  type MergeStrategy,
} from '@parley/shared';
import { isBlankRow, ImportFileError, layoutOf, readCsvRows, scanCsv } from './import/csvRows.js';
import { contactImportColumns, presentContactImport } from './import/presenter.js';
import type { Database, Db } from '../../platform/db/client.js';
import { contactImports } from '../../platform/db/schema/index.js';
import { publishEvent } from '../../platform/events/outbox.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { importContactsJob } from './importContactsJob.js';
import { writeContactBatch } from './contactImporterBatch.js';
import { abandonContactImport } from './contactImporterJob.js';
import { ImportRowPipeline, ImportTally } from './contactImporterRows.js';
import { accountImportContext, badImport, batchOptions, planOf, resolveMapping } from './contactImporterSetup.js';

/**
 * Contact imports (docs/decisions.md, Contact imports). A file is checked and its mapping resolved at
 * upload, then kept in `contact_imports` and imported by a background job (contactImporterJob.ts); rows
 * sent as JSON are imported at once, through the same row rules and the same batch writer.
 */

export const IMPORT_NOT_QUEUED_MESSAGE = 'The import could not be started. Please upload the file again.';

export interface UploadInput {
  readonly accountId: string;
  readonly userId: string | null;
  readonly file: Buffer;
  readonly query: ContactImportUploadQuery;
}

/** The header and whether any row follows it: read before the file is accepted. */
async function headerOf(file: Buffer): Promise<string[]> {
  const layout = layoutOf(file);
  // The whole file is checked now (a fast scan), so a fault anywhere is refused before anything is stored.
  scanCsv(layout);
  let header: string[] | null = null;
  for await (const { values } of readCsvRows(layout)) {
    if (header === null) {
      if (isBlankRow(values)) continue;
      header = values;
      continue;
    }
    if (!isBlankRow(values)) return header;
  }
  throw new ImportFileError(header === null ? importFileMessages.empty : importFileMessages.noRows);
}

/**
 * Accepts an upload: refuses a file that is not readable CSV or has no rows, and a mapping that leaves a
 * mandatory field without a source (400, nothing stored); otherwise stores the file and queues the job.
 */
export async function startContactImport(database: Database, jobs: JobQueue, input: UploadInput): Promise<ContactImport> {
  let header: string[];
  try {
    header = await headerOf(input.file);
  } catch (error) {
    if (error instanceof ImportFileError) throw badImport(error.message);
    throw error;
  }
  const context = await accountImportContext(database.db, input.accountId);
  const resolved = resolveMapping(header, input.query.mapping, input.query.defaults, context);
  const [row] = await database.db
    .insert(contactImports)
    .values({
      id: uuidv7(),
      accountId: input.accountId,
      userId: input.userId,
      status: 'queued',
      fileName: input.query.fileName,
      file: input.file,
      fileSize: input.file.length,
      mergeStrategy: input.query.mergeStrategy,
      mapping: resolved.mapping,
      defaults: resolved.defaults,
    })
    .returning(contactImportColumns);
  if (!row) throw new Error('the import insert returned nothing');
  try {
    await jobs.send(importContactsJob(database), { importId: row.id });
  } catch (error) {
    // Not queued, never run: say so on the import rather than leave it waiting for good.
    await abandonContactImport(database, row.id, IMPORT_NOT_QUEUED_MESSAGE);
    throw error;
  }
  return presentContactImport(row);
}

/** JSON rows (objects keyed like CSV headers) as header and cells, in the order keys first appear. */
function rowsAsTable(data: ContactImportRows['data']): { header: string[]; rows: string[][] } {
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
  const rows = data.map((item) => header.map((key) => cell(item[key])));
  return { header, rows };
}

/**
 * POST .../contacts/import: up to IMPORT_SYNC_ROWS_MAX rows imported in one transaction, recorded as a
 * completed import (so it shows with the others and announces itself like them). Row numbers count
 * data[0] as row 1.
 */
export async function importContactRows(
  db: Db,
  input: { accountId: string; userId: string | null; strategy: MergeStrategy; body: ContactImportRows },
): Promise<ContactImport> {
  const { header, rows } = rowsAsTable(input.body.data);
  if (rows.length === 0) throw badImport('data: Must select 1 or more');
  return db.transaction(async (tx) => {
    const context = await accountImportContext(tx, input.accountId);
    const resolved = resolveMapping(header, input.body.mapping, input.body.defaults, context);
    const pipeline = new ImportRowPipeline(planOf(resolved, context), context.lists, new ImportTally(), rows.length + 1);
    rows.forEach((values, i) => {
      pipeline.accept(i + 1, values);
    });
    await writeContactBatch(tx, batchOptions(input.accountId, input.strategy, resolved), pipeline.take());
    const result = pipeline.tally.snapshot();
    const now = new Date();
    const [row] = await tx
      .insert(contactImports)
      .values({
        id: uuidv7(),
        accountId: input.accountId,
        userId: input.userId,
        status: 'completed',
        fileName: 'JSON rows',
        file: null,
        fileSize: 0,
        mergeStrategy: input.strategy,
        mapping: resolved.mapping,
        defaults: resolved.defaults,
        totalRows: rows.length,
        processedRows: rows.length,
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
    const presented = presentContactImport(row);
    await publishEvent(tx, { type: 'contactsImported', accountId: input.accountId, data: { import: presented } });
    return presented;
  });
}
