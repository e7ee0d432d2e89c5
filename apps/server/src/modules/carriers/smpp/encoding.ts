import type { MessageEncoding } from '../carrier.js';

/*
 * Text to SMPP octets and back. data_coding 0 carries GSM 03.38 unpacked (one septet per octet, extension
 * characters as escape + code), data_coding 8 UCS-2 big-endian. Long texts split as the engine counted
 * them (packages/shared segments): GSM-7 153 septets per part, an extension character never split;
 * UCS-2 67 code units per part, a surrogate pair never split.
 */

export const DATA_CODING: Record<MessageEncoding, number> = { 'GSM-7': 0, 'UCS-2': 8 };

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION: ReadonlyArray<readonly [string, number]> = [
  ['\f', 0x0a], ['^', 0x14], ['{', 0x28], ['}', 0x29], ['\\', 0x2f], ['[', 0x3c], ['~', 0x3d], [']', 0x3e],
  ['|', 0x40], ['€', 0x65],
];
const ESCAPE = 0x1b;

const basicCode = new Map<string, number>();
for (let i = 0; i < GSM_BASIC.length; i++) if (i !== ESCAPE) basicCode.set(GSM_BASIC.charAt(i), i);
const extensionCode = new Map<string, number>(GSM_EXTENSION);
const extensionChar = new Map<number, string>(GSM_EXTENSION.map(([character, code]) => [code, character]));

/** Septets of one UTF-16 code unit: 1, 2 (extension table) or 1 for a character sent as '?'. */
function septets(character: string): number {
  return extensionCode.has(character) ? 2 : 1;
}

/** GSM-7 unpacked; a character outside GSM 03.38 (the engine has already replaced look-alikes) goes as '?'. */
export function encodeGsm7(text: string): Buffer {
  const octets: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const character = text.charAt(i);
    const extension = extensionCode.get(character);
    if (extension !== undefined) octets.push(ESCAPE, extension);
    else octets.push(basicCode.get(character) ?? 0x3f);
  }
  return Buffer.from(octets);
}

export function decodeGsm7(octets: Buffer): string {
  let text = '';
  for (let i = 0; i < octets.length; i++) {
    const code = octets[i] ?? 0;
    if (code === ESCAPE && i + 1 < octets.length) {
      i++;
      text += extensionChar.get(octets[i] ?? 0) ?? ' ';
    } else text += GSM_BASIC.charAt(code & 0x7f);
  }
  return text;
}

export function encodeUcs2(text: string): Buffer {
  const octets = Buffer.alloc(text.length * 2);
  for (let i = 0; i < text.length; i++) octets.writeUInt16BE(text.charCodeAt(i), i * 2);
  return octets;
}

export function decodeUcs2(octets: Buffer): string {
  let text = '';
  for (let i = 0; i + 1 < octets.length; i += 2) text += String.fromCharCode(octets.readUInt16BE(i));
  return text;
}

export function encodeText(text: string, encoding: MessageEncoding): Buffer {
  return encoding === 'GSM-7' ? encodeGsm7(text) : encodeUcs2(text);
}

/** Text from octets by data_coding: 0 GSM-7, 8 UCS-2, 3 Latin-1, anything else ASCII. */
export function decodeByDataCoding(octets: Buffer, dataCoding: number): string {
  switch (dataCoding & 0x0f) {
    case 0:
      return decodeGsm7(octets);
    case 8:
      return decodeUcs2(octets);
    case 3:
      return octets.toString('latin1');
    default:
      return octets.toString('ascii');
  }
}

const LIMITS: Record<MessageEncoding, { single: number; part: number }> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

/** The text of each part: one part when it fits a single message, else parts of a concatenated one. */
export function splitText(text: string, encoding: MessageEncoding): string[] {
  const limits = LIMITS[encoding];
  if (encoding === 'UCS-2') {
    if (text.length <= limits.single) return [text];
    const parts: string[] = [];
    let start = 0;
    while (start < text.length) {
      let end = Math.min(start + limits.part, text.length);
      const last = text.charCodeAt(end - 1);
      // A high surrogate at the end would leave its pair in the next part.
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      parts.push(text.slice(start, end));
      start = end;
    }
    return parts;
  }
  let total = 0;
  for (let i = 0; i < text.length; i++) total += septets(text.charAt(i));
  if (total <= limits.single) return [text];
  const parts: string[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const width = septets(text.charAt(i));
    if (used + width > limits.part) {
      parts.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += width;
  }
  parts.push(text.slice(start));
  return parts;
}

/** The 8-bit-reference concatenation header: 05 00 03 ref total seq. */
export function concatenationHeader(reference: number, total: number, sequence: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total, sequence]);
}

export interface Concatenation {
  reference: number;
  total: number;
  sequence: number;
}

/** The concatenation element among a message's UDH elements (8-bit IE 00 or 16-bit IE 08), if any. */
export function findConcatenation(elements: readonly Buffer[]): Concatenation | null {
  for (const element of elements) {
    if (element[0] === 0x00 && element.length >= 5) {
      return { reference: element[2] ?? 0, total: element[3] ?? 0, sequence: element[4] ?? 0 };
    }
    if (element[0] === 0x08 && element.length >= 6) {
      return { reference: element.readUInt16BE(2), total: element[4] ?? 0, sequence: element[5] ?? 0 };
    }
  }
  return null;
}
