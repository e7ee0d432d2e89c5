import type { Invoice } from '@parley/shared';

/** Text for a PDF string literal: backslashes and parentheses escaped, anything outside printable ASCII dropped. */
const pdfText = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');

/**
 * The sandbox's invoice as a one-page PDF, written by hand (PDF 1.4, Helvetica, no dependency): what the
 * invoice says in lines of text. Stripe's invoices come with Stripe's own PDF.
 */
export function invoicePdf(invoice: Invoice, accountName: string): Buffer {
  const rows: string[] = [
    'Invoice',
    '',
    `Account: ${accountName}`,
    `Date: ${invoice.date.slice(0, 10)}`,
    `Status: ${invoice.status}`,
    `Invoice: ${invoice.id}`,
    '',
    invoice.description,
    '',
    ...invoice.lines.map((line) => `${line.description}    USD ${line.amount}`),
    '',
    `Total    USD ${invoice.total}`,
    '',
    'Issued by the sandbox payment provider: no money was charged.',
  ];
  const content = ['BT', '/F1 12 Tf', '14 TL', '56 780 Td', ...rows.map((row) => `(${pdfText(row)}) '`), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${String(Buffer.byteLength(content, 'latin1'))} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${String(index + 1)} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${String(objects.length + 1)}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${String(objects.length + 1)} /Root 1 0 R >>\nstartxref\n${String(xref)}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
