import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '@parley/shared';
import { scanCsvText } from './csvScan.js';

/** What csv-parse, configured as the importer configures it, makes of a text. */
function csvParse(text: string, delimiter: ',' | ';'): { ok: true; rows: number; headerRow: number } | { ok: false; code: string } {
  try {
    const records: string[][] = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, max_record_size: 1_000_000 });
    const headerAt = records.findIndex((r) => !r.every((v) => v.trim() === ''));
    return { ok: true, rows: records.length, headerRow: headerAt + 1 };
  } catch (error) {
    if (error instanceof CsvError) return { ok: false, code: error.code };
    throw error;
  }
}

function randomText(random: () => number, length: number): string {
  const alphabet = ['a', 'b', ' ', ',', ';', '"', '"', '\n', '\r\n', '\r', 'é'];
  let text = '';
  for (let i = 0; i < length; i += 1) text += alphabet[Math.floor(random() * alphabet.length)] ?? '';
  return text;
}

describe('scanCsvText', () => {
  it('counts rows and finds the header as csv-parse does', () => {
    expect(scanCsvText('a,b\r\n1,2\r\n\r\n', ',')).toEqual({ ok: true, rows: 3, headerRow: 1 });
    expect(scanCsvText('\n,,\nmobile\n1', ',')).toEqual({ ok: true, rows: 4, headerRow: 3 });
    expect(scanCsvText('a,"x\ny"\n"q""q",2\n', ',')).toEqual({ ok: true, rows: 2, headerRow: 1 });
    expect(scanCsvText('', ',')).toEqual({ ok: true, rows: 0, headerRow: 0 });
  });

  it('finds a quote never closed, and a row too long, with the line the row starts on', () => {
    expect(scanCsvText('a,b\n1,2\n3,"4\n5,6\n', ',')).toEqual({ ok: false, fault: 'unclosedQuote', line: 3 });
    expect(scanCsvText(`a\n1\n${'x'.repeat(200)}\n`, ',', 100)).toEqual({ ok: false, fault: 'rowTooLong', row: 3, line: 3 });
    expect(scanCsvText(`a\n"${'x'.repeat(200)}`, ',', 100)).toEqual({ ok: false, fault: 'unclosedQuote', line: 2 });
  });

  it('agrees with csv-parse on 5,000 random files', () => {
    const random = seededRandom(42);
    const disagreements: string[] = [];
    for (let k = 0; k < 5000; k += 1) {
      const text = randomText(random, 1 + Math.floor(random() * 40));
      const delimiter = k % 2 === 0 ? ',' : ';';
      const expected = csvParse(text, delimiter);
      const got = scanCsvText(text, delimiter);
      const same = expected.ok
        ? got.ok && got.rows === expected.rows && got.headerRow === expected.headerRow
        : !got.ok && expected.code === 'CSV_QUOTE_NOT_CLOSED' && got.fault === 'unclosedQuote';
      if (!same) disagreements.push(`${JSON.stringify(text)} ${delimiter}: csv-parse ${JSON.stringify(expected)}, scan ${JSON.stringify(got)}`);
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
  });
});
