/*
 * The text of a mail as an SMS: the plain-text part (or the HTML as text) without the quoted history and the
 * signature (docs/integrations.md, "Email").
 */

/** Where the quoted history starts: the line itself and all after it go. */
const historyStarts: readonly RegExp[] = [
  /^-{2,}\s*original message\s*-{2,}\s*$/i,
  /^-{2,}\s*forwarded message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
  /^on\s.+\swrote:\s*$/i,
  /^le\s.+\sa écrit\s*:\s*$/i,
  /^am\s.+\sschrieb\s.*:\s*$/i,
];

/** Where a signature starts: the line and all after it go. */
const signatureStarts: readonly RegExp[] = [/^--\s?$/, /^sent from my\s/i, /^sent from (outlook|mail|yahoo)/i, /^get outlook for\s/i];

/** An "On ... wrote:" that a mail program wrapped over two lines. */
const wrappedAttribution = (line: string, next: string | undefined): boolean => /^on\s/i.test(line) && next !== undefined && /wrote:\s*$/i.test(next) && !/wrote:\s*$/i.test(line);

/** HTML as text: block ends become line breaks, tags go, the common entities are decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<blockquote[\s\S]*?<\/blockquote>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The new text of a reply: quoted lines, the history after an attribution and the signature removed. */
export function stripQuotedText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (historyStarts.some((r) => r.test(trimmed)) || wrappedAttribution(trimmed, lines[i + 1]?.trim())) break;
    if (signatureStarts.some((r) => r.test(trimmed))) break;
    if (trimmed.startsWith('>')) continue;
    kept.push(line.trimEnd());
  }
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The SMS text of a mail: its plain text, else its HTML as text, stripped. */
export function smsTextOfMail(mail: { text?: string | undefined; html?: string | false | undefined }): string {
  const plain = mail.text !== undefined && mail.text.trim() !== '' ? mail.text : typeof mail.html === 'string' ? htmlToText(mail.html) : '';
  return stripQuotedText(plain);
}
