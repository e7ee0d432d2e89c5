/** The product's validation messages, used by the server and the forms alike. */
export const validationMessages = {
  required: 'Required',
  number: 'Must be a number',
  email: 'Invalid email address',
  url: 'Valid URL with http or https prefix required',
  phoneNumberMissing: 'Number is missing',
  phoneCountryInvalid: 'Country is not valid',
  phoneInvalid: 'Country or Number is not valid',
  selectOneOrMore: 'Must select 1 or more',
  passwordTooWeak: 'Password is too weak',
} as const;

/**
 * PostgreSQL keeps no NUL character (U+0000) in text or jsonb: a value holding one would fail its write.
 * Text that comes in with one is refused with this message (the API's validation, imports, file rows).
 */
export const NUL_CHARACTER_MESSAGE = 'The text holds a character that cannot be kept (NUL, \\u0000)';

export const hasNulCharacter = (text: string): boolean => text.includes('\u0000');

/** Where, in a parsed JSON-like value, a string or key holds a NUL character: the paths, at most `limit`. */
export function nulCharacterPaths(value: unknown, limit = 5): (string | number)[][] {
  const found: (string | number)[][] = [];
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (found.length >= limit) return;
    if (typeof node === 'string') {
      if (hasNulCharacter(node)) found.push(path);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => {
        visit(item, [...path, index]);
      });
    } else if (typeof node === 'object' && node !== null && !ArrayBuffer.isView(node)) {
      for (const [key, item] of Object.entries(node)) {
        if (hasNulCharacter(key)) found.push([...path, key.replaceAll('\u0000', '\\u0000')]);
        else visit(item, [...path, key]);
      }
    }
  };
  visit(value, []);
  return found;
}
