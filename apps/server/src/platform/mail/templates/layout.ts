import type { MailMessage } from '../mailer.js';

/** A message before it is addressed. */
export type MailContent = Omit<MailMessage, 'to'>;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeMailHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

export interface MailLayout {
  /** The greeting's name; a plain "Hello," without one. */
  name?: string;
  /** Paragraphs before the button. */
  intro: readonly string[];
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  outro: readonly string[];
}

export function greeting(name: string | undefined): string {
  const trimmed = name?.trim() ?? '';
  return trimmed === '' ? 'Hello,' : `Hello ${trimmed},`;
}

/** The plain-text body: every link written out, since many clients show only this. */
export function mailText(layout: MailLayout): string {
  const action = layout.action ? [`${layout.action.label}: ${layout.action.url}`] : [];
  return [greeting(layout.name), ...layout.intro, ...action, ...layout.outro, '- Parley'].join('\n\n') + '\n';
}

const paragraph = (text: string): string => `<p style="margin:0 0 16px">${escapeMailHtml(text)}</p>`;

/** The HTML alternative: one column, inline styles (mail clients drop style sheets), everything escaped. */
export function mailHtml(title: string, layout: MailLayout): string {
  const action = layout.action
    ? `<p style="margin:24px 0"><a href="${escapeMailHtml(layout.action.url)}" style="display:inline-block;padding:12px 20px;background:#1f4fbf;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:500">${escapeMailHtml(layout.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#5b6475">If the button does not work, open this link: <a href="${escapeMailHtml(layout.action.url)}" style="color:#1f4fbf;word-break:break-all">${escapeMailHtml(layout.action.url)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeMailHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fb;font-family:Roboto,'Segoe UI',Helvetica,Arial,sans-serif;color:#1d2433;font-size:15px;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<div style="color:#1f4fbf;font-weight:700;font-size:22px;margin:0 0 24px">Parley</div>
${paragraph(greeting(layout.name))}
${layout.intro.map(paragraph).join('\n')}
${action}
${layout.outro.map(paragraph).join('\n')}
<p style="margin:24px 0 0;color:#5b6475">- Parley</p>
</div>
</body>
</html>`;
}

/** Subject, text and HTML of one message from one layout. */
export function renderMail(subject: string, layout: MailLayout): MailContent {
  return { subject, text: mailText(layout), html: mailHtml(subject, layout) };
}
