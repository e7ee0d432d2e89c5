/**
 * What a contact file must be before it is parsed: text in an encoding we can read, with a delimiter we
 * can find. The browser (on the file's first bytes, for the preview) and the server (on the whole upload)
 * run the same checks, so both refuse a file with the same words.
 */

/** Uploads larger than this answer 413; the wizard refuses them before sending. */
export const IMPORT_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_FILE_MAX_LABEL = '20 MB';
/** One row (all its fields) may hold at most this many characters: a contact is a few hundred. */
export const IMPORT_ROW_MAX_CHARS = 64 * 1024;

export const importFileMessages = {
  /** Every parse failure. Details, when known, follow after a colon. */
  unableToProcess: 'Unable to process CSV file',
  tooLarge: `The file is larger than ${IMPORT_FILE_MAX_LABEL}. Split it into smaller files and upload each one.`,
  empty: 'The file is empty.',
  noHeader: 'The first row must name the columns (for example mobile, firstName, lastName).',
  noRows: 'The file has a header row but no contacts under it.',
  workbook:
    'This is an Excel workbook, not a CSV file. In Excel choose File › Save As › CSV UTF-8 (Comma delimited) and upload that file.',
  binary: 'This is not a CSV file: it holds binary data. Choose a .csv file saved as text.',
  utf16WithoutBom:
    'The file looks like UTF-16 text without a byte-order mark, which cannot be read reliably. Save it as CSV UTF-8 and upload it again.',
  notUtf8: (line: number) =>
    `The file is not UTF-8 text: line ${line} has characters in another encoding (such as Windows-1252 or Latin-1). ` +
    'Save it as CSV UTF-8 (in Excel: File › Save As › CSV UTF-8) and upload it again.',
  unclosedQuote: (line: number) =>
    `Unable to process CSV file: the quoted value that starts on line ${line} is never closed.`,
  badClosingQuote: (line: number) =>
    `Unable to process CSV file: on line ${line} a quoted value is followed by more text before the next separator.`,
  rowTooLong: (row: number) =>
    `Unable to process CSV file: row ${row} is longer than ${IMPORT_ROW_MAX_CHARS / 1024} KB. ` +
    'A contact row is a few hundred characters; is this a contact list?',
} as const;

export type ImportEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

export type TextCheck =
  | { ok: true; encoding: ImportEncoding; bomLength: number }
  | { ok: false; message: string };

const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);

/** Signatures of files people pick by mistake: workbooks and other binaries. */
const workbookSignatures = [
  [0x50, 0x4b, 0x03, 0x04], // .xlsx, .numbers, any zip
  [0xd0, 0xcf, 0x11, 0xe0], // .xls (OLE2)
];
const binarySignatures = [
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x1f, 0x8b], // gzip
];

/**
 * The offset of the first byte that is not well-formed UTF-8, or -1. With `truncated`, a sequence cut
 * off by the end of the sample is accepted (the browser checks only the first bytes of a file).
 */
export function invalidUtf8Offset(bytes: Uint8Array, start = 0, truncated = false): number {
  const n = bytes.length;
  let i = start;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    if (i + need >= n) {
      if (!truncated) return i;
      for (let k = i + 1; k < n; k += 1) if (((bytes[k] as number) & 0xc0) !== 0x80) return i;
      return -1;
    }
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k] as number;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}

const lineOf = (bytes: Uint8Array, offset: number): number => {
  let line = 1;
  for (let i = 0; i < offset; i += 1) if (bytes[i] === 0x0a) line += 1;
  return line;
};

/**
 * Checks that the bytes are text we can read: UTF-8 (with or without a byte-order mark) or UTF-16 with one
 * (Excel's "Unicode Text"). Anything else gets a message saying what the file is and how to fix it: we
 * never guess an 8-bit code page, since a wrong guess imports garbled names without a word.
 * `truncated`: the bytes are the start of a longer file.
 */
export function checkImportText(bytes: Uint8Array, truncated = false): TextCheck {
  if (bytes.length === 0) return { ok: false, message: importFileMessages.empty };
  if (workbookSignatures.some((s) => startsWith(bytes, s))) return { ok: false, message: importFileMessages.workbook };
  if (binarySignatures.some((s) => startsWith(bytes, s))) return { ok: false, message: importFileMessages.binary };
  if (startsWith(bytes, [0xff, 0xfe])) return { ok: true, encoding: 'utf-16le', bomLength: 2 };
  if (startsWith(bytes, [0xfe, 0xff])) return { ok: true, encoding: 'utf-16be', bomLength: 2 };
  const bomLength = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;

  // NUL never appears in text; every other byte NUL is UTF-16 that lost its byte-order mark.
  const sample = Math.min(bytes.length, 4096);
  let nuls = 0;
  let evenNuls = 0;
  let controls = 0;
  for (let i = 0; i < sample; i += 1) {
    const b = bytes[i] as number;
    if (b === 0) {
      nuls += 1;
      if (i % 2 === 0) evenNuls += 1;
    } else if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) {
      controls += 1;
    }
  }
  if (nuls > 0) {
    const half = sample / 2;
    const utf16Like = nuls >= half * 0.6 && (evenNuls >= nuls * 0.9 || evenNuls <= nuls * 0.1);
    return { ok: false, message: utf16Like ? importFileMessages.utf16WithoutBom : importFileMessages.binary };
  }
  if (controls > sample / 100) return { ok: false, message: importFileMessages.binary };
  const bad = invalidUtf8Offset(bytes, bomLength, truncated);
  if (bad >= 0) {
    // Mostly-undecodable bytes are a binary file, a few are text in another code page.
    return { ok: false, message: importFileMessages.notUtf8(lineOf(bytes, bad)) };
  }
  if (!truncated && bytes.includes(0)) return { ok: false, message: importFileMessages.binary };
  return { ok: true, encoding: 'utf-8', bomLength };
}

/** The delimiters a contact file may use: Excel writes ';' where ',' is the decimal mark, and tabs. */
export const importDelimiters = [',', ';', '\t'] as const;
export type ImportDelimiter = (typeof importDelimiters)[number];

/**
 * The delimiter of a file, from its header line: the candidate that occurs most often outside quotes
 * (',' on a tie or when none occurs, as a one-column file has none). Both parsers are then told it, so
 * the browser's preview and the server's import read the file the same way.
 */
export function detectDelimiter(text: string): ImportDelimiter {
  const counts: Record<ImportDelimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c] += 1;
  }
  let best: ImportDelimiter = ',';
  for (const d of importDelimiters) if (counts[d] > counts[best]) best = d;
  return best;
}
