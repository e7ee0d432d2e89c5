import { supportedCountries } from '@parley/shared';
import { escapeHtml } from '../identity/index.js';

/*
 * The public sign-up page of an OptIn template: one self-contained document (inline styles, no scripts, no
 * external assets) that works without JavaScript, on a phone first. It speaks for the account, never for
 * Parley: the person signing up knows the business, not the software behind it.
 */

const styles = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:flex-start;justify-content:center;background:#f4f6fb;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1d2433}
main{width:100%;max-width:440px;margin:24px 16px;background:#fff;border-radius:8px;padding:28px 24px;
box-shadow:0 2px 4px rgba(16,24,40,.08),0 8px 24px rgba(16,24,40,.08)}
h1{font-size:22px;line-height:1.3;margin:0 0 8px}
p{margin:0 0 16px}
label{display:block;font-weight:600;font-size:15px;margin:0 0 6px}
select,input{width:100%;height:48px;padding:0 12px;margin:0 0 16px;font:inherit;color:inherit;background:#fff;
border:1px solid #8a93a6;border-radius:4px}
select:focus,input:focus,button:focus{outline:3px solid #1f4fbf;outline-offset:1px}
input[aria-invalid=true]{border-color:#b3261e}
.hint{margin:-10px 0 16px;font-size:14px;color:#4a5468}
.consent{font-size:14px;color:#3b4557}
button{width:100%;min-height:48px;border:0;border-radius:4px;background:#1f4fbf;color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#183f99}
.error{background:#fdecea;color:#8a1c14;border-radius:4px;padding:10px 12px;margin:0 0 16px}
.notice{background:#e6f4ea;color:#14532d;border-radius:4px;padding:12px;margin:0 0 16px}
`;

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${styles}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

/** The countries the select offers: the supported ones, and the account's default when it is another. */
export function optInCountries(defaultCountry: string): { code: string; name: string }[] {
  const list: { code: string; name: string }[] = supportedCountries.map((c) => ({ code: c.code, name: c.name }));
  const code = defaultCountry.toUpperCase();
  if (!list.some((c) => c.code === code)) {
    const name = new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
    list.push({ code, name });
  }
  return list;
}

export interface OptInFormView {
  accountName: string;
  /** The form's target (this page's path). */
  action: string;
  defaultCountry: string;
  /** What was posted, shown again with an error. */
  country?: string;
  number?: string;
  error?: string;
}

/** The sign-up form: country, mobile number, the consent sentence and the button. */
export function optInFormPage(view: OptInFormView): string {
  const name = escapeHtml(view.accountName);
  const chosen = (view.country ?? view.defaultCountry).toUpperCase();
  const options = optInCountries(view.defaultCountry)
    .map((c) => `<option value="${escapeHtml(c.code)}"${c.code === chosen ? ' selected' : ''}>${escapeHtml(c.name)}</option>`)
    .join('');
  const error = view.error === undefined ? '' : `<div class="error" role="alert" id="number-error">${escapeHtml(view.error)}</div>`;
  const described =
    view.error === undefined ? ' aria-describedby="number-hint"' : ' aria-invalid="true" aria-describedby="number-error number-hint"';
  return document(
    `Text messages from ${view.accountName}`,
    `<h1>Text messages from ${name}</h1>
<p>Enter your mobile number to sign up. We will text you once to confirm.</p>
${error}<form method="post" action="${escapeHtml(view.action)}" novalidate>
<label for="country">Country</label>
<select id="country" name="country" autocomplete="country">${options}</select>
<label for="number">Mobile number</label>
<input id="number" name="number" type="tel" inputmode="tel" autocomplete="tel" maxlength="40" required value="${escapeHtml(view.number ?? '')}"${described}>
<p class="hint" id="number-hint">A number of another country: start it with + and its country code.</p>
<p class="consent">By signing up, you agree to receive recurring text messages from ${name} at this number. Consent is not a condition of purchase. Message frequency varies. Message and data rates may apply. Reply STOP to unsubscribe at any time, HELP for help.</p>
<button type="submit">Sign up</button>
</form>`,
  );
}

/** After a sign-up: what to do next. The same words whether or not the number was on the list already. */
export function optInRequestedPage(accountName: string, number: string, heldForQuietHours = false): string {
  const name = escapeHtml(accountName);
  const held = heldForQuietHours ? `\n<p>It is outside the hours ${name} sends messages in your time zone: the text arrives when they begin.</p>` : '';
  return document(
    `Text messages from ${accountName}`,
    `<h1>Text messages from ${name}</h1>
<div class="notice" role="status">Almost done: reply <strong>YES</strong> to the text message ${name} sends to ${escapeHtml(number)} to confirm your sign-up.</div>
<p>If this number is signed up already, no new text is sent.</p>${held}`,
  );
}

export const OPT_IN_PAGE_NOT_FOUND = 'This sign-up page does not exist or is no longer available.';

export function optInNotFoundPage(): string {
  return document('Page not found', `<h1>Page not found</h1>\n<p>${escapeHtml(OPT_IN_PAGE_NOT_FOUND)}</p>`);
}
