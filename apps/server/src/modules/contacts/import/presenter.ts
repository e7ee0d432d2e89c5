import { getTableColumns } from 'drizzle-orm';
import type { ContactImport, ContactImportError } from '@parley/shared';
import { contactImports, type ContactImportRow } from '../../../platform/db/schema/index.js';

/** An import without its file: what every read but the job's needs (the file may be 20 MB). */
export type ContactImportRecord = Omit<ContactImportRow, 'file'>;

const { file: _file, ...recordColumns } = getTableColumns(contactImports);
/** For select() and returning(): every column but the file. */
export const contactImportColumns = recordColumns;

const at = (d: Date | null): { at: string } | null => (d === null ? null : { at: d.toISOString() });

/** The import as the API shows it; the counters are final once completed, so far while running. */
export function presentContactImport(row: ContactImportRecord): ContactImport {
  const errors = Array.isArray(row.errors) ? (row.errors as ContactImportError[]) : [];
  return {
    id: row.id,
    status: row.status,
    fileName: row.fileName,
    fileSize: row.fileSize,
    mergeStrategy: row.mergeStrategy,
    progress: { processedRows: row.processedRows, totalRows: row.totalRows },
    result: {
      submitted: row.submitted,
      success: row.success,
      missingMobile: row.missingMobile,
      duplicates: row.duplicates,
      errors,
      unlistedErrors: Math.max(0, row.submitted - row.success - errors.length),
    },
    error: row.errorMessage === null ? null : { description: row.errorMessage },
    created: { at: row.createdAt.toISOString() },
    started: at(row.startedAt),
    finished: at(row.finishedAt),
  };
}
