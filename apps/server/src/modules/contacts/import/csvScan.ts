import { IMPORT_ROW_MAX_CHARS, type ImportDelimiter } from '@parley/shared';

/**
 * A first pass over a file that counts its rows and finds the faults that would stop an import part way,
 * without building a single value: about twenty times cheaper than parsing. It reads quotes the way
 * csv-parse does with `relax_quotes` (a quote opens a quoted value only at the start of a value; `""` inside
 * is a quote; a quote followed by anything but a separator or the end of the line makes the value plain
 * text again) and ends rows the way csv-parse finds them (the first of \r\n, \n or \r in the file, outside
 * quotes, is the row separator). csvScan.test.ts holds it to csv-parse on random files.
 */

export type CsvScan =
  | { ok: true; rows: number; headerRow: number }
  | { ok: false; fault: 'unclosedQuote'; line: number }
  | { ok: false; fault: 'rowTooLong'; row: number; line: number };

const QUOTE = 34;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

export function scanCsvText(text: string, delimiter: ImportDelimiter, maxRowChars = IMPORT_ROW_MAX_CHARS): CsvScan {
  const sep = delimiter.charCodeAt(0);
  const n = text.length;
  // The row separator: unknown until the first line break outside quotes.
  let rowEnd: 'crlf' | 'lf' | 'cr' | null = null;
  let rows = 0;
  let headerRow = 0;
  let line = 1;
  let rowStart = 0;
  let rowLine = 1;
  let blank = true;
  let quoted = false;
  let atValueStart = true;
  let i = 0;
  /** Whether a value ends at j: the end, a separator, or the row separator (any line break until known). */
  const endsValueAt = (j: number): boolean => {
    if (j >= n) return true;
    const c = text.charCodeAt(j);
    if (c === sep) return true;
    switch (rowEnd) {
      case null:
        return c === CR || c === LF;
      case 'lf':
        return c === LF;
      case 'cr':
        return c === CR;
      case 'crlf':
        return c === CR && text.charCodeAt(j + 1) === LF;
    }
  };
  const endRow = (): void => {
    rows += 1;
    if (headerRow === 0 && !blank) headerRow = rows;
    blank = true;
    atValueStart = true;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (i - rowStart > maxRowChars) {
      return quoted ? { ok: false, fault: 'unclosedQuote', line: rowLine } : { ok: false, fault: 'rowTooLong', row: rows + 1, line: rowLine };
    }
    if (quoted) {
      if (c === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) {
          blank = false;
          i += 2;
          continue;
        }
        quoted = false;
        // Text right after the closing quote makes the whole value plain text, quotes and all.
        if (!endsValueAt(i + 1)) blank = false;
        i += 1;
        continue;
      }
      if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line += 1;
      if (c !== SPACE && c !== TAB && c !== LF && c !== CR) blank = false;
      i += 1;
      continue;
    }
    if (c === sep) {
      atValueStart = true;
      i += 1;
      continue;
    }
    if (c === CR || c === LF) {
      rowEnd ??= c === LF ? 'lf' : text.charCodeAt(i + 1) === LF ? 'crlf' : 'cr';
      const width = rowEnd === 'crlf' ? 2 : 1;
      const ends =
        rowEnd === 'crlf' ? c === CR && text.charCodeAt(i + 1) === LF : rowEnd === 'lf' ? c === LF : c === CR;
      if (ends) {
        endRow();
        i += width;
        line += 1;
        rowStart = i;
        rowLine = line;
        continue;
      }
      // Another kind of line break inside a row: part of the value, as csv-parse reads it.
      if (c === LF || text.charCodeAt(i + 1) !== LF) line += 1;
      atValueStart = false;
      i += 1;
      continue;
    }
    if (c === QUOTE && atValueStart) {
      quoted = true;
      atValueStart = false;
      i += 1;
      continue;
    }
    atValueStart = false;
    if (c !== SPACE && c !== TAB) blank = false;
    i += 1;
  }
  if (quoted) return { ok: false, fault: 'unclosedQuote', line: rowLine };
  if (rowStart < n) endRow();
  return { ok: true, rows, headerRow };
}
