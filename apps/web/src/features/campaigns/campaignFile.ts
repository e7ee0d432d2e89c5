import Papa from 'papaparse';
import {
  CAMPAIGN_FILE_EMPTY_MESSAGE,
  CAMPAIGN_FILE_ROWS_MAX,
  CAMPAIGN_FILE_ROWS_MAX_MESSAGE,
  checkImportText,
  detectDelimiter,
  IMPORT_FILE_MAX_BYTES,
  importColumnNames,
  importFileMessages,
  type CampaignFieldMapping,
  type CampaignFileRows,
} from '@parley/shared';

export type CampaignFileReading = { ok: true; rows: CampaignFileRows; missing: string[] } | { ok: false; message: string };

const decoderLabel = { 'utf-8': 'utf-8', 'utf-16le': 'utf-16le', 'utf-16be': 'utf-16be' } as const;
const blank = (row: readonly string[]): boolean => row.every((v) => v.trim() === '');

/**
 * The rows of a file for a File Upload execution: read as the contact import reads a file (encoding,
 * delimiter, header names), each row keeping only the columns the campaign maps. `missing` names mapped
 * columns the file does not have.
 */
export function campaignFileRows(bytes: Uint8Array, mappings: readonly CampaignFieldMapping[]): CampaignFileReading {
  if (bytes.length > IMPORT_FILE_MAX_BYTES) return { ok: false, message: importFileMessages.tooLarge };
  const check = checkImportText(bytes);
  if (!check.ok) return { ok: false, message: check.message };
  const body = new TextDecoder(decoderLabel[check.encoding]).decode(bytes).replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(body, { delimiter: detectDelimiter(body.slice(0, 64 * 1024)), skipEmptyLines: false });
  if (parsed.errors.some((e) => e.code === 'MissingQuotes')) return { ok: false, message: importFileMessages.unclosedQuote(1) };
  const records = parsed.data;
  const headerAt = records.findIndex((r) => !blank(r));
  if (headerAt < 0) return { ok: false, message: CAMPAIGN_FILE_EMPTY_MESSAGE };
  const columns = importColumnNames(records[headerAt] ?? []);
  const wanted = new Set(mappings.map((m) => m.column));
  const missing = [...wanted].filter((c) => !columns.includes(c));
  const rows = records
    .slice(headerAt + 1)
    .filter((r) => !blank(r))
    .map((record) => Object.fromEntries(columns.flatMap((column, i) => (wanted.has(column) ? [[column, record[i] ?? '']] : []))));
  if (rows.length === 0) return { ok: false, message: CAMPAIGN_FILE_EMPTY_MESSAGE };
  if (rows.length > CAMPAIGN_FILE_ROWS_MAX) return { ok: false, message: CAMPAIGN_FILE_ROWS_MAX_MESSAGE };
  return { ok: true, rows, missing };
}
