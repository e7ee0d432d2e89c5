/**
 * Template tokens (DESIGN.md, docs/templates.md): `{{{firstName}}}`, `{{{lastName}}}`,
 * `{{{mobile}}}`, `{{{email}}}` and `{{{<attribute>}}}`. Shared by the message editor (token picker and
 * warnings) and the sending engine (one rendering per contact).
 *
 * - A token is exactly three opening braces, optional spaces, a name, optional spaces, three closing braces.
 *   A name is a letter then letters, digits or underscores (the attribute-name rule). Anything else, such as
 *   `{{firstName}}` or `{{{first name}}}`, is literal text.
 * - A name may carry the prefix `contact.`, as the hosted product's API writes its tokens
 *   (`{{{contact.firstName}}}`): it means the same token as the name alone (docs/templates.md).
 * - Names are case-sensitive, like attribute names: `{{{FirstName}}}` is not `{{{firstName}}}` (and, since
 *   attribute names may not spell a contact field in any case, it is always unknown).
 * - An unknown token or an empty value renders as nothing; the result lists them so the editor can warn.
 * - Values are inserted as they are (SMS text: no escaping).
 * - Positions are string indices (UTF-16 code units, as a textarea's selection), `end` exclusive.
 *
 * The parser is one left-to-right pass with no regular expression, so its time is linear in the text.
 */

/** The contact fields a template may name, in the token picker's order. */
export const contactTokenFields = ['firstName', 'lastName', 'mobile', 'email'] as const;
export type ContactTokenField = (typeof contactTokenFields)[number];

const OPEN = '{{{';
const CLOSE = '}}}';
/** `{{{contact.firstName}}}` is `{{{firstName}}}` (the hosted product's API writes its tokens so). */
const CONTACT_PREFIX = 'contact.';
const SPACE = 0x20;

export interface TemplateText {
  kind: 'text';
  text: string;
  start: number;
  end: number;
}

export interface TemplateToken {
  kind: 'token';
  /** The name inside the braces, without spaces. */
  name: string;
  /** The token as written, braces and spaces included. */
  raw: string;
  start: number;
  end: number;
}

export type TemplatePart = TemplateText | TemplateToken;

export interface ParsedTemplate {
  /** The whole text in order: literal runs (never empty, never two in a row) and tokens. */
  parts: TemplatePart[];
  /** The tokens alone, in order, repeats included. */
  tokens: TemplateToken[];
}

/** What a contact needs for rendering; the API's Contact fits. */
export interface TemplateContact {
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly mobile?: { readonly number: string } | null;
  readonly email?: string | null;
  readonly attributes?: Readonly<Record<string, string>> | null;
}

export interface RenderedTemplate {
  text: string;
  /** Known tokens with no value (absent, empty or only spaces) for this contact; each once, in order. */
  missing: string[];
  /** Tokens that are neither a contact field nor a known attribute name; each once, in order. */
  unknown: string[];
}

const isLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameChar = (c: number): boolean => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;

/** A valid token name (the same rule as attribute names, without their length limit). */
export function isTokenName(name: string): boolean {
  if (name.length === 0 || !isLetter(name.charCodeAt(0))) return false;
  for (let i = 1; i < name.length; i++) if (!isNameChar(name.charCodeAt(i))) return false;
  return true;
}

export const isContactTokenField = (name: string): name is ContactTokenField =>
  (contactTokenFields as readonly string[]).includes(name);

/** The token text for a name, as the picker inserts it. */
export const tokenText = (name: string): string => `${OPEN}${name}${CLOSE}`;

/**
 * The token starting at `at` (where `{{{` stands), or null. It reads only spaces and name characters past the
 * braces, which no other attempt can read again (another start needs a brace there), so the pass stays linear.
 */
function tokenAt(text: string, at: number): { name: string; end: number } | null {
  let p = at + OPEN.length;
  while (text.charCodeAt(p) === SPACE) p++;
  if (text.startsWith(CONTACT_PREFIX, p) && isLetter(text.charCodeAt(p + CONTACT_PREFIX.length))) p += CONTACT_PREFIX.length;
  const nameStart = p;
  if (!isLetter(text.charCodeAt(p))) return null;
  p++;
  while (isNameChar(text.charCodeAt(p))) p++;
  const name = text.slice(nameStart, p);
  while (text.charCodeAt(p) === SPACE) p++;
  if (!text.startsWith(CLOSE, p)) return null;
  return { name, end: p + CLOSE.length };
}

/** Splits a template into literal text and tokens. `{{{{x}}}}` is a brace, the token `x`, a brace. */
export function parseTemplate(text: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  const tokens: TemplateToken[] = [];
  let literalStart = 0;
  let at = text.indexOf(OPEN);
  while (at !== -1) {
    const found = tokenAt(text, at);
    if (found === null) {
      at = text.indexOf(OPEN, at + 1);
      continue;
    }
    if (at > literalStart) parts.push({ kind: 'text', text: text.slice(literalStart, at), start: literalStart, end: at });
    const token: TemplateToken = { kind: 'token', name: found.name, raw: text.slice(at, found.end), start: at, end: found.end };
    parts.push(token);
    tokens.push(token);
    literalStart = found.end;
    at = text.indexOf(OPEN, found.end);
  }
  if (text.length > literalStart) parts.push({ kind: 'text', text: text.slice(literalStart), start: literalStart, end: text.length });
  return { parts, tokens };
}

/** The distinct token names of a template, in order of first use. */
export function templateTokensOf(text: string): string[] {
  return [...new Set(parseTemplate(text).tokens.map((t) => t.name))];
}

/**
 * The token picker's names: the four contact fields, then the account's attribute names in the order given
 * (names that could not be a token, repeats and contact fields are left out).
 */
export function knownTokens(attributeNames: Iterable<string>): string[] {
  const names = new Set<string>(contactTokenFields);
  for (const name of attributeNames) if (isTokenName(name)) names.add(name);
  return [...names];
}

function fieldValue(contact: TemplateContact, field: ContactTokenField): string | null | undefined {
  switch (field) {
    case 'firstName':
      return contact.firstName;
    case 'lastName':
      return contact.lastName;
    case 'mobile':
      return contact.mobile?.number;
    case 'email':
      return contact.email;
  }
}

/**
 * Renders a template for one contact. `attributeNames` are the account's attribute names (what the editor's
 * picker offers); by default, the contact's own. A token naming neither a field nor one of them is unknown
 * and renders as nothing, even if the contact happens to hold such an attribute.
 */
export function renderTemplate(
  text: string,
  contact: TemplateContact,
  attributeNames: Iterable<string> = Object.keys(contact.attributes ?? {}),
): RenderedTemplate {
  const known = new Set(attributeNames);
  const attributes = contact.attributes ?? {};
  const missing = new Set<string>();
  const unknown = new Set<string>();
  let out = '';
  for (const part of parseTemplate(text).parts) {
    if (part.kind === 'text') {
      out += part.text;
      continue;
    }
    let value: string | null | undefined;
    if (isContactTokenField(part.name)) value = fieldValue(contact, part.name);
    else if (known.has(part.name)) value = Object.hasOwn(attributes, part.name) ? attributes[part.name] : undefined;
    else {
      unknown.add(part.name);
      continue;
    }
    if (value == null || value.trim() === '') missing.add(part.name);
    else out += value;
  }
  return { text: out, missing: [...missing], unknown: [...unknown] };
}
