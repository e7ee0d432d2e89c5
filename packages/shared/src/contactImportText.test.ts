import { describe, expect, it } from 'vitest';
import { checkImportText, detectDelimiter, importFileMessages, invalidUtf8Offset } from './contactImportText.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

describe('checkImportText', () => {
  it('reads UTF-8 with or without a byte-order mark', () => {
    expect(checkImportText(bytes('mobile,name\n+14155552671,Zoë\n'))).toEqual({ ok: true, encoding: 'utf-8', bomLength: 0 });
    expect(checkImportText(bytes([0xef, 0xbb, 0xbf], 'mobile\n1\n'))).toEqual({ ok: true, encoding: 'utf-8', bomLength: 3 });
  });

  it('reads UTF-16 with a byte-order mark (Excel "Unicode Text")', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('mobile\tname\n', 'utf16le')]);
    expect(checkImportText(le)).toEqual({ ok: true, encoding: 'utf-16le', bomLength: 2 });
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('mobile\n', 'utf16le').swap16()]);
    expect(checkImportText(be)).toEqual({ ok: true, encoding: 'utf-16be', bomLength: 2 });
  });

  it('refuses UTF-16 without a byte-order mark', () => {
    expect(checkImportText(Buffer.from('mobile,name\n+14155552671,Ann\n', 'utf16le'))).toEqual({
      ok: false,
      message: importFileMessages.utf16WithoutBom,
    });
  });

  it('refuses Latin-1 text naming the line', () => {
    const latin1 = Buffer.from('mobile,name\n+14155552671,Ann\n+14155552672,Zo\xeb\n', 'latin1');
    expect(checkImportText(latin1)).toEqual({ ok: false, message: importFileMessages.notUtf8(3) });
    expect(importFileMessages.notUtf8(3)).toMatch(/^The file is not UTF-8 text: line 3 .*CSV UTF-8/);
  });

  it('refuses workbooks, binaries and empty files', () => {
    expect(checkImportText(bytes([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toEqual({ ok: false, message: importFileMessages.workbook });
    expect(checkImportText(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1]))).toEqual({ ok: false, message: importFileMessages.workbook });
    expect(checkImportText(bytes('%PDF-1.7\n'))).toEqual({ ok: false, message: importFileMessages.binary });
    const noise = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
    expect(checkImportText(noise)).toEqual({ ok: false, message: importFileMessages.binary });
    expect(checkImportText(new Uint8Array(0))).toEqual({ ok: false, message: importFileMessages.empty });
  });

  it('accepts a multi-byte character cut off at the end of a sample only when told it is a sample', () => {
    const cut = bytes('mobile,name\n1,Zo', [0xc3]);
    expect(invalidUtf8Offset(cut, 0, true)).toBe(-1);
    expect(invalidUtf8Offset(cut, 0, false)).toBe(cut.length - 1);
    expect(checkImportText(cut, true)).toMatchObject({ ok: true });
  });

  it('refuses overlong forms and surrogates', () => {
    expect(invalidUtf8Offset(bytes('a', [0xc0, 0xaf]))).toBe(1);
    expect(invalidUtf8Offset(bytes([0xed, 0xa0, 0x80]))).toBe(0);
    expect(invalidUtf8Offset(bytes([0xf0, 0x9f, 0x98, 0x80]))).toBe(-1);
  });
});

describe('detectDelimiter', () => {
  it('finds the separator of the header line outside quotes', () => {
    expect(detectDelimiter('mobile,firstName,lastName\n1;2;3;4;5\n')).toBe(',');
    expect(detectDelimiter('mobile;firstName;lastName\r\n')).toBe(';');
    expect(detectDelimiter('mobile\tfirstName\n')).toBe('\t');
    expect(detectDelimiter('"Name, full";mobile;email\n')).toBe(';');
    expect(detectDelimiter('mobile\n+14155552671\n')).toBe(',');
  });
});
