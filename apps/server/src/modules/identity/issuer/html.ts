const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

const styles = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f4f6fb;
font-family:Roboto,"Segoe UI",Helvetica,Arial,sans-serif;color:#1d2433}
main{width:100%;max-width:400px;margin:24px;background:#fff;border-radius:8px;padding:32px;
box-shadow:0 2px 4px rgba(16,24,40,.08),0 8px 24px rgba(16,24,40,.08)}
.brand{display:flex;align-items:center;gap:10px;margin-bottom:24px;color:#1f4fbf;font-weight:700;font-size:22px}
.brand span{display:inline-flex;width:32px;height:32px;border-radius:8px;background:#1f4fbf;color:#fff;
align-items:center;justify-content:center;font-size:18px}
h1{font-size:20px;font-weight:500;margin:0 0 20px}
label{display:block;font-size:14px;margin:0 0 6px;color:#3b4557}
input{width:100%;height:44px;padding:0 12px;margin:0 0 16px;font-size:16px;border:1px solid #c4cad6;border-radius:4px}
input:focus{outline:2px solid #1f4fbf;outline-offset:-1px;border-color:#1f4fbf}
button{width:100%;height:44px;border:0;border-radius:4px;background:#1f4fbf;color:#fff;font-size:15px;
font-weight:500;letter-spacing:.02em;cursor:pointer}
button:hover{background:#183f99}
.error{background:#fdecea;color:#8a1c14;border-radius:4px;padding:10px 12px;margin:0 0 16px;font-size:14px;white-space:pre-line}
.notice{background:#e8f0fe;color:#183f99;border-radius:4px;padding:10px 12px;margin:0 0 16px;font-size:14px}
p{font-size:14px;color:#3b4557}
a{color:#1f4fbf}
.links{margin:20px 0 0;text-align:center}
.hint{margin:-8px 0 16px;font-size:13px;color:#5b6475;white-space:pre-line}
.social{display:flex;align-items:center;justify-content:center;height:44px;margin:0 0 12px;border:1px solid #c4cad6;
border-radius:4px;color:#1d2433;font-size:15px;font-weight:500;text-decoration:none}
.social:hover{background:#f4f6fb}
.or{display:flex;align-items:center;gap:12px;margin:8px 0 16px;font-size:13px;color:#5b6475}
.or::before,.or::after{content:"";flex:1;border-top:1px solid #e1e5ee}
`;

/** A page of the issuer, styled like the web app: the brand and a centered card. Body must be escaped. */
export function issuerPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Parley</title>
<style>${styles}</style>
</head>
<body>
<main>
<div class="brand"><span aria-hidden="true">P</span>Parley</div>
${body}
</main>
</body>
</html>`;
}

export interface SignInPageOptions {
  action: string;
  email?: string;
  error?: string;
  /** The password-reset request page, linked as 'Forgot your password?'. */
  forgotUrl?: string;
  /** The app's sign-up page, linked as 'Create an account' for newcomers. */
  signUpUrl?: string;
  /** Upstream providers (social sign-in), one 'Continue with <name>' link each, above the form. */
  social?: readonly { name: string; href: string }[];
}

function socialLinks(social: SignInPageOptions['social']): string {
  if (social === undefined || social.length === 0) return '';
  const links = social.map((p) => `<a class="social" href="${escapeHtml(p.href)}">Continue with ${escapeHtml(p.name)}</a>`);
  return `${links.join('\n')}\n<p class="or">or</p>\n`;
}

const errorBox = (error: string | undefined): string =>
  error === undefined ? '' : `<div class="error" role="alert">${escapeHtml(error)}</div>`;

export function signInPage(options: SignInPageOptions): string {
  const error = options.error === undefined ? '' : `<div class="error" role="alert">${escapeHtml(options.error)}</div>`;
  return issuerPage(
    'Sign in',
    `<h1>Sign in</h1>
${error}
${socialLinks(options.social)}<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}"${options.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${options.email ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>${options.forgotUrl === undefined ? '' : `\n<p class="links"><a href="${escapeHtml(options.forgotUrl)}">Forgot your password?</a></p>`}${options.signUpUrl === undefined ? '' : `\n<p class="links">New to Parley? <a href="${escapeHtml(options.signUpUrl)}">Create an account</a></p>`}`,
  );
}

export function messagePage(title: string, message: string): string {
  return issuerPage(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

export interface ForgotPasswordPageOptions {
  action: string;
  email?: string;
  error?: string;
  /** The answer to a request, the same whether or not the address has an account. */
  notice?: string;
}

export function forgotPasswordPage(options: ForgotPasswordPageOptions): string {
  const notice = options.notice === undefined ? '' : `<div class="notice" role="status">${escapeHtml(options.notice)}</div>`;
  return issuerPage(
    'Reset your password',
    `<h1>Reset your password</h1>
${notice}${errorBox(options.error)}
<p>Enter the email address of your account and we will send you a link to choose a new password.</p>
<form method="post" action="${escapeHtml(options.action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
<button type="submit">Send reset link</button>
</form>`,
  );
}

export interface ResetPasswordPageOptions {
  action: string;
  token: string;
  /** The password rules, shown under the field. */
  rules: string;
  error?: string;
}

export function resetPasswordPage(options: ResetPasswordPageOptions): string {
  return issuerPage(
    'Choose a new password',
    `<h1>Choose a new password</h1>
${errorBox(options.error)}
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required autofocus>
<p class="hint">${escapeHtml(options.rules)}</p>
<label for="confirm">Repeat the new password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<button type="submit">Set new password</button>
</form>`,
  );
}

/** A message with one link below it (back to the app, or to ask for a new link). */
export function linkPage(title: string, message: string, link: { href: string; label: string }): string {
  return issuerPage(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p class="links"><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
  );
}
