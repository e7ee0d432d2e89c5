import { randomBytes } from 'node:crypto';

/*
 * The Email integration's addresses (docs/decisions.md, "Email addresses"): `<token>@<domain>` is the
 * account's, `<digits>.<token>@<domain>` texts the number whose E.164 digits come first. The token names the
 * account; a number alone could not.
 */

const TOKEN_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const TOKEN_LENGTH = 12;

/** A new token: 12 characters of lower-case letters and digits (no look-alikes), about 60 bits. */
export function newMailToken(): string {
  const bytes = randomBytes(TOKEN_LENGTH);
  return Array.from(bytes, (b) => TOKEN_ALPHABET[b % TOKEN_ALPHABET.length] ?? 'a').join('');
}

export interface ParsedRecipient {
  token: string;
  /** The destination's E.164 digits (no '+'); null for the bare token address. */
  digits: string | null;
}

/** Reads an address on the inbound domain; null when it is another domain or not of either form. */
export function parseMailRecipient(address: string, domain: string): ParsedRecipient | null {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0 || lower.slice(at + 1) !== domain) return null;
  const match = /^(?:(\d{6,15})\.)?([a-z0-9]{6,40})$/.exec(lower.slice(0, at));
  if (match === null) return null;
  return { token: match[2] ?? '', digits: match[1] ?? null };
}

export const tokenAddress = (token: string, domain: string): string => `${token}@${domain}`;

/** The address that texts (and whose replies come from) a number: `<digits>.<token>@<domain>`. */
export const numberAddress = (mobile: string, token: string, domain: string): string => `${mobile.replace(/\D/g, '')}.${token}@${domain}`;

/**
 * The destination of a mail to the bare token address: a subject that is a phone number (digits, spaces,
 * '+', '-', '.', parentheses) names it; null otherwise.
 */
export function digitsOfSubject(subject: string): string | null {
  const trimmed = subject.trim();
  if (!/^\+?[\d\s().-]{6,30}$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 6 && digits.length <= 15 ? digits : null;
}
