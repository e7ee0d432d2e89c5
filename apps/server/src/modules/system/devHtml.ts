const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML element or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/g;
// Sentence punctuation after a link belongs to the sentence, not the link.
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** Escapes plain text and turns its http(s) links into anchors; other schemes stay text. */
export function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING_PUNCTUATION, '');
    const start = match.index;
    html += escapeHtml(text.slice(last, start));
    const href = escapeHtml(url);
    html += `<a href="${href}">${href}</a>`;
    last = start + url.length;
  }
  return html + escapeHtml(text.slice(last));
}

/** `2026-11-21 11:23:04 UTC`, with the ISO time for machines. */
export function timeElement(at: Date): string {
  const iso = at.toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}
.note{color:#5b6475;margin:0 0 20px}
table{width:100%;border-collapse:collapse;background:#fff}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid #e3e6eb;vertical-align:top}
th{font-weight:600;color:#5b6475}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;background:#fff;padding:12px 16px;margin:0 0 20px}
dt{font-weight:600;color:#5b6475}
dd{margin:0;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#fff;padding:16px;margin:0 0 20px;font:14px/1.5 ui-monospace,monospace}
iframe{width:100%;min-height:480px;border:1px solid #e3e6eb;background:#fff}
a{color:#1a56db}
`;

/** A complete page; `title` is text, `body` is HTML the caller has escaped. */
export function htmlPage(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/**
 * For the pages above: no scripts at all, inline styles only. A srcdoc frame inherits this policy,
 * so an HTML mail body can neither run scripts nor load anything but images.
 */
export const DEV_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; frame-ancestors 'none'; form-action 'none'";
