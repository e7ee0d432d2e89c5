import Papa from 'papaparse';
import {
  checkImportText,
  detectDelimiter,
  detectImportFormat,
  IMPORT_FILE_MAX_BYTES,
  IMPORT_ROW_MAX_CHARS,
  importColumnNames,
  importFileMessages,
  type ImportDelimiter,
  type ImportFormat,
} from '@parley/shared';

/** What the wizard knows about a file after its first step. */
export interface CsvPreview {
  readonly columns: string[];
  /** The first rows under the header, for the preview table and the mapping's sample values. */
  readonly sample: string[][];
  /** Rows with something in them (the server counts the same). */
  readonly rowCount: number;
  readonly delimiter: ImportDelimiter;
  readonly format: ImportFormat | null;
}

export type CsvReading = { ok: true; preview: CsvPreview } | { ok: false; message: string };

export const PREVIEW_ROWS = 5;

const decoderLabel = { 'utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16be': 'utf-16be' } as const;

const blank = (row: readonly string[]): boolean => row.every((v) => v.trim() === '');

/**
 * Reads a chosen file as the server will: the same encoding checks, the same delimiter, the
 * same header names; papaparse stands in for csv-parse. Any failure is 'Unable to process CSV file',
 * followed by what is wrong when that is known.
 */
export function readCsvBytes(bytes: Uint8Array): CsvReading {
  if (bytes.length > IMPORT_FILE_MAX_BYTES) return { ok: false, message: importFileMessages.tooLarge };
  const check = checkImportText(bytes);
  if (!check.ok) return { ok: false, message: check.message };
  const text = new TextDecoder(decoderLabel[check.encoding], { ignoreBOM: false }).decode(bytes);
  const body = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(body.slice(0, 64 * 1024));
  const parsed = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: false });
  const unclosed = parsed.errors.find((e) => e.code === 'MissingQuotes');
  if (unclosed !== undefined) {
    const line = body.slice(0, unclosed.index ?? 0).split(/\r\n|\r|\n/).length;
    return { ok: false, message: importFileMessages.unclosedQuote(line) };
  }
  const records = parsed.data;
  const headerAt = records.findIndex((r) => !blank(r));
  if (headerAt < 0) return { ok: false, message: importFileMessages.empty };
  for (let i = headerAt; i < records.length; i += 1) {
    const record = records[i] ?? [];
    if (record.reduce((n, v) => n + v.length, 0) > IMPORT_ROW_MAX_CHARS) return { ok: false, message: importFileMessages.rowTooLong(i + 1) };
  }
  const rows = records.slice(headerAt + 1).filter((r) => !blank(r));
  if (rows.length === 0) return { ok: false, message: importFileMessages.noRows };
  const columns = importColumnNames(records[headerAt] ?? []);
  return {
    ok: true,
    preview: { columns, sample: rows.slice(0, PREVIEW_ROWS), rowCount: rows.length, delimiter, format: detectImportFormat(columns) },
  };
}

export async function readCsvFile(file: File): Promise<CsvReading> {
  if (file.size > IMPORT_FILE_MAX_BYTES) return { ok: false, message: importFileMessages.tooLarge };
  return readCsvBytes(new Uint8Array(await file.arrayBuffer()));
}
