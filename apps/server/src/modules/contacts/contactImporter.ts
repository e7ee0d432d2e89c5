import { v7 as uuidv7 } from 'uuid';
import { importFileMessages, type ContactImport, type ContactImportUploadQuery } from '@parley/shared';
import { isBlankRow, ImportFileError, layoutOf, readCsvRows, scanCsv } from './import/csvRows.js';
import { contactImportColumns, presentContactImport } from './import/presenter.js';
import type { Database } from '../../platform/db/client.js';
import { contactImports } from '../../platform/db/schema/index.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { importContactsJob } from './importContactsJob.js';
import { abandonContactImport } from './contactImporterJob.js';
import { accountImportContext, badImport, resolveMapping } from './contactImporterSetup.js';

/**
 * Contact imports (docs/decisions.md, Contact imports). A file is checked and its mapping resolved at
 * upload, then kept in `contact_imports` and imported by a background job (contactImporterJob.ts); rows
 * sent as JSON, and a small CSV file sent to POST .../contacts, are imported at once
 * (contactImportAtOnce.ts), through the same row rules and the same batch writer.
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
