import fs from 'node:fs';
import { importFileMessages } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { readCsvBytes } from './readCsvFile';

const fixture = (name: string): Uint8Array =>
  fs.readFileSync(new URL(`../../../../../server/src/modules/contacts/import/fixtures/${name}`, import.meta.url));

describe('readCsvBytes (the wizard reads a file as the server will)', () => {
  it('reads an export: columns, rows with something in them, the format, a preview', () => {
    const reading = readCsvBytes(fixture('google.csv'));
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.preview).toMatchObject({ rowCount: 4, delimiter: ',', format: 'google' });
    expect(reading.preview.columns.slice(0, 3)).toEqual(['First Name', 'Middle Name', 'Last Name']);
    expect(reading.preview.sample[0]?.[14]).toBe('Prefers texts\nafter 5pm');
  });

  it("reads Excel's files: a byte-order mark and ';', or UTF-16 and tabs", () => {
    const semicolons = readCsvBytes(fixture('excel-semicolon-bom.csv'));
    expect(semicolons).toMatchObject({ ok: true, preview: { delimiter: ';', rowCount: 3, columns: ['Mobile', 'First name', 'Last name', 'E-mail', 'Shoe size', 'Balance'] } });
    const unicode = readCsvBytes(fixture('excel-unicode-text.txt'));
    expect(unicode).toMatchObject({ ok: true, preview: { delimiter: '\t', rowCount: 2, sample: [['+44 7400 123456', 'Chloé', 'Martin', 'Réunion ☕'], ['+1 415 555 2671', 'Ann', 'Lee', '']] } });
  });

  it('refuses what the server refuses, with the same words', () => {
    expect(readCsvBytes(fixture('bad-latin1.csv'))).toEqual({ ok: false, message: importFileMessages.notUtf8(3) });
    expect(readCsvBytes(fixture('bad-utf16-no-bom.csv'))).toEqual({ ok: false, message: importFileMessages.utf16WithoutBom });
    expect(readCsvBytes(fixture('bad-binary.png'))).toEqual({ ok: false, message: importFileMessages.binary });
    expect(readCsvBytes(fixture('bad-no-rows.csv'))).toEqual({ ok: false, message: importFileMessages.noRows });
    expect(readCsvBytes(fixture('bad-unclosed-quote.csv'))).toEqual({ ok: false, message: importFileMessages.unclosedQuote(3) });
    expect(readCsvBytes(new Uint8Array(0))).toEqual({ ok: false, message: importFileMessages.empty });
    const tenMegabytes = Buffer.concat([Buffer.from('mobile\n'), Buffer.alloc(10 * 1024 * 1024, 'x')]);
    expect(readCsvBytes(tenMegabytes)).toEqual({ ok: false, message: importFileMessages.rowTooLong(2) });
  });
});
