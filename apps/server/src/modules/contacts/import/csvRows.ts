import { CsvError, parse, type Options, type Parser } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { scanCsvText } from './csvScan.js';
import {
  checkImportText,
  detectDelimiter,
  IMPORT_ROW_MAX_CHARS,
  importFileMessages,
  type ImportDelimiter,
  type ImportEncoding,
} from '@parley/shared';

/** A file that cannot be imported at all; the message is for the person who chose it. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

/** How to read a file: found once at upload, kept with the import. */
export interface CsvLayout {
  /** UTF-8 or UTF-16 LE after conversion: the text as csv-parse reads it. */
  readonly text: Buffer;
  readonly encoding: 'utf8' | 'utf16le';
  readonly delimiter: ImportDelimiter;
}

/** One record: its row number as a spreadsheet shows it (the header is row 1) and its cells. */
export interface CsvRow {
  readonly row: number;
  readonly values: string[];
}

/** The file as text csv-parse can stream, or a clear refusal (binary, wrong encoding, empty). */
export function layoutOf(file: Buffer): CsvLayout {
  const check = checkImportText(file);
  if (!check.ok) throw new ImportFileError(check.message);
  const encoding: ImportEncoding = check.encoding;
  let text = file.subarray(check.bomLength);
  if (encoding === 'utf-16be') text = Buffer.from(text).swap16();
  const nodeEncoding = encoding === 'utf-8' ? 'utf8' : 'utf16le';
  const head = text.subarray(0, 64 * 1024).toString(nodeEncoding);
  if (head.trim() === '') throw new ImportFileError(importFileMessages.empty);
  return { text, encoding: nodeEncoding, delimiter: detectDelimiter(head) };
}

const CHUNK = 256 * 1024; // even, so a UTF-16 character is never split between chunks

function* chunks(text: Buffer): Generator<Buffer> {
  for (let at = 0; at < text.length; at += CHUNK) yield text.subarray(at, at + CHUNK);
}

/**
 * Where a record that grew past the size limit started, and whether a quote opened there: a quote that is
 * never closed swallows the rest of the file, and deserves its own message.
 */
function oversizeMessage(layout: CsvLayout, startByte: number, row: number, line: number): string {
  const sample = layout.text.subarray(startByte, startByte + 4096).toString(layout.encoding);
  const opensQuote = new RegExp(`(^|[\\r\\n${layout.delimiter === '\t' ? '\\t' : layout.delimiter}])\\s*"`).test(sample);
  return opensQuote ? importFileMessages.unclosedQuote(line) : importFileMessages.rowTooLong(row);
}

const parserOptions = (layout: CsvLayout): Options => ({
  delimiter: layout.delimiter,
  encoding: layout.encoding,
  relax_column_count: true,
  relax_quotes: true,
  // The scan refuses longer rows first; this only keeps a file that slips past it from filling memory.
  max_record_size: IMPORT_ROW_MAX_CHARS * 2,
});

/**
 * Where the record after the first `records` starts: its line and byte offset. Only a fault needs it, so
 * it is found then, by reading those records again with csv-parse's position info (costly per record).
 */
function startOfRecord(layout: CsvLayout, records: number): { line: number; bytes: number } {
  if (records === 0) return { line: 1, bytes: 0 };
  let line = 1;
  let bytes = 0;
  parseSync(layout.text, {
    ...parserOptions(layout),
    to: records,
    on_record: (record: string[], context) => {
      line = context.lines + 1;
      bytes = context.bytes;
      return record;
    },
  });
  return { line, bytes };
}

/** A csv-parse fault as the person who chose the file should read it. */
function importFileError(layout: CsvLayout, error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const records = typeof error.records === 'number' ? error.records : 0;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return new ImportFileError(importFileMessages.unclosedQuote(startOfRecord(layout, records).line));
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    const start = startOfRecord(layout, records);
    return new ImportFileError(oversizeMessage(layout, start.bytes, records + 1, start.line));
  }
  return new ImportFileError(`${importFileMessages.unableToProcess}: ${error.message}`);
}

/** A parser fed from the file in chunks, as the reader takes records (backpressure both ways). */
function feedParser(layout: CsvLayout): { parser: Parser; fed: Promise<void> } {
  const parser = parse(parserOptions(layout));
  // Drained, or closed because the reader stopped early: either way stop waiting.
  const writable = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        parser.off('drain', done);
        parser.off('close', done);
        resolve();
      };
      parser.on('drain', done);
      parser.on('close', done);
    });
  const fed = (async () => {
    for (const chunk of chunks(layout.text)) {
      if (parser.destroyed) return;
      if (!parser.write(chunk)) await writable();
    }
    if (!parser.destroyed) parser.end();
  })();
  // A write after the parser failed is not the feeder's error to report: the reader gets the fault.
  fed.catch(() => undefined);
  return { parser, fed };
}

/**
 * The records of a file, the header first, numbered as a spreadsheet numbers its rows (csv-parse counts
 * a blank line as a record, and so does a spreadsheet). Structural faults (a quote never closed, a row
 * past the size limit) end it with an ImportFileError naming the line or row. Quotes inside unquoted
 * values ('Bob "Bo" Lee', 5'10") and rows shorter or longer than the header are read as they are;
 * whether a row makes sense is the row check's business.
 */
export async function* readCsvRows(layout: CsvLayout): AsyncGenerator<CsvRow> {
  const { parser, fed } = feedParser(layout);
  let row = 0;
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      row += 1;
      yield { row, values };
    }
  } catch (error) {
    throw importFileError(layout, error);
  } finally {
    if (!parser.destroyed) parser.destroy();
    await fed.catch(() => undefined);
  }
}

/**
 * Reads a file through without keeping its records (csvScan.ts, which reads quotes and line breaks as
 * csv-parse does): where the header is (the first row that is not blank) and how many rows there are,
 * or the fault that would stop an import part way, so such a file is refused before anything is written.
 */
export function scanCsv(layout: CsvLayout): { headerRow: number; lastRow: number } {
  const scan = scanCsvText(layout.text.toString(layout.encoding), layout.delimiter);
  if (scan.ok) return { headerRow: scan.headerRow, lastRow: scan.rows };
  switch (scan.fault) {
    case 'unclosedQuote':
      throw new ImportFileError(importFileMessages.unclosedQuote(scan.line));
    case 'rowTooLong':
      throw new ImportFileError(importFileMessages.rowTooLong(scan.row));
  }
}

/** A row with nothing in it (a blank line, or a spreadsheet's ",,,,"). */
export const isBlankRow = (values: readonly string[]): boolean => values.every((v) => v.trim() === '');

/** A small file read whole: its header and its data rows, numbered as a spreadsheet shows them. */
export interface CsvTable {
  readonly header: string[];
  readonly rows: CsvRow[];
}

/**
 * Reads a file that is imported at once: checked whole first (as an upload is), then read to the end, or
 * refused with `tooMany` as soon as it holds more than `maxRows` rows that are not blank. A file without a
 * header or without a row under it is refused too; any refusal is an ImportFileError, and nothing is written.
 */
export async function readCsvTable(file: Buffer, maxRows: number, tooMany: string): Promise<CsvTable> {
  const layout = layoutOf(file);
  scanCsv(layout);
  let header: string[] | null = null;
  const rows: CsvRow[] = [];
  let counted = 0;
  for await (const record of readCsvRows(layout)) {
    const blank = isBlankRow(record.values);
    if (header === null) {
      if (!blank) header = record.values;
      continue;
    }
    if (!blank) counted += 1;
    if (counted > maxRows) throw new ImportFileError(tooMany);
    rows.push(record);
  }
  if (header === null) throw new ImportFileError(importFileMessages.empty);
  if (counted === 0) throw new ImportFileError(importFileMessages.noRows);
  return { header, rows };
}
