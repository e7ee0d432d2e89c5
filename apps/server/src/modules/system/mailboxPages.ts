import { z } from 'zod';
import type { MailboxMessageRow } from '../../platform/db/schema/index.js';
import { escapeHtml, htmlPage, linkify, timeElement } from './devHtml.js';

/** A kept message as /dev/mailbox.json answers it. */
export const mailboxMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
});

/** A kept message as the JSON list shows it. */
export function presentMailboxMessage(row: MailboxMessageRow): z.infer<typeof mailboxMessageSchema> {
  return {
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    html: row.html,
    createdAt: row.createdAt.toISOString(),
  };
}

const subjectText = (subject: string): string => (subject.trim() === '' ? '(no subject)' : subject);

/** The mailbox page: the newest messages, `limit` at most (and a note when there may be more). */
export function mailboxListPage(rows: readonly MailboxMessageRow[], limit: number): string {
  const items = rows
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.recipient)}</td>` +
        `<td><a href="/dev/mailbox/${escapeHtml(row.id)}">${escapeHtml(subjectText(row.subject))}</a></td>` +
        `<td>${timeElement(row.createdAt)}</td></tr>`,
    )
    .join('');
  const table =
    rows.length === 0
      ? '<p>No messages yet.</p>'
      : `<table><thead><tr><th>To</th><th>Subject</th><th>Time</th></tr></thead><tbody>${items}</tbody></table>`;
  const more = rows.length === limit ? `<p class="note">Showing the newest ${limit} messages.</p>` : '';
  return htmlPage(
    'Mailbox - Parley',
    '<h1>Mailbox</h1>' +
      '<p class="note">E-mail this Parley has sent, kept here because no SMTP server is configured (SMTP_URL). ' +
      'Newest first.</p>' +
      table +
      more,
  );
}

/** One message's page: its headers, its text and its HTML body in a sandboxed frame. */
export function mailboxMessagePage(row: MailboxMessageRow, from: string): string {
  const subject = subjectText(row.subject);
  const headers =
    `<dl><dt>From</dt><dd>${escapeHtml(from)}</dd>` +
    `<dt>To</dt><dd>${escapeHtml(row.recipient)}</dd>` +
    `<dt>Subject</dt><dd>${escapeHtml(subject)}</dd>` +
    `<dt>Date</dt><dd>${timeElement(row.createdAt)}</dd></dl>`;
  // The HTML body runs in a sandboxed frame without scripts; its links open in a new tab.
  const htmlBody =
    row.html === null
      ? ''
      : '<h2>HTML</h2><iframe title="HTML body" sandbox="allow-popups allow-popups-to-escape-sandbox" ' +
        `srcdoc="${escapeHtml(`<base target="_blank">${row.html}`)}"></iframe>`;
  return htmlPage(
    `${subject} - Mailbox - Parley`,
    '<p><a href="/dev/mailbox">&larr; Mailbox</a></p>' +
      `<h1>${escapeHtml(subject)}</h1>` +
      headers +
      `<h2>Text</h2><pre>${linkify(row.text)}</pre>` +
      htmlBody,
  );
}
