import { validationMessages } from './validation.js';

/** The rules a sign-up password must meet, worded as the form lists them. */
export const passwordRules = [
  { id: 'length', text: 'At least 10 characters in length', test: (p: string) => p.length >= 10 },
  { id: 'lower', text: 'Lower case letters (a-z)', test: (p: string) => /[a-z]/.test(p) },
  { id: 'upper', text: 'Upper case letters (A-Z)', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'number', text: 'Numbers (0-9)', test: (p: string) => /[0-9]/.test(p) },
  { id: 'special', text: 'Special characters (e.g. !@#$%^&*)', test: (p: string) => /[^A-Za-z0-9]/.test(p) },
] as const;

export type PasswordRuleId = (typeof passwordRules)[number]['id'];

/** Length is required; of the four kinds of character, at least three. */
export const REQUIRED_CHARACTER_KINDS = 3;
export const MAX_PASSWORD_LENGTH = 128;

export interface PasswordStrength {
  strong: boolean;
  met: readonly PasswordRuleId[];
  unmet: readonly PasswordRuleId[];
}

export function passwordStrength(password: string): PasswordStrength {
  const met = passwordRules.filter((r) => r.test(password)).map((r) => r.id);
  const unmet = passwordRules.filter((r) => !r.test(password)).map((r) => r.id);
  const kinds = met.filter((id) => id !== 'length').length;
  const strong =
    met.includes('length') && kinds >= REQUIRED_CHARACTER_KINDS && password.length <= MAX_PASSWORD_LENGTH;
  return { strong, met, unmet };
}

/** 'Password is too weak' plus the rules, as the sign-up form and the API say it. */
export function weakPasswordMessage(): string {
  const kinds = passwordRules.filter((r) => r.id !== 'length').map((r) => `  * ${r.text}`);
  const length = passwordRules.find((r) => r.id === 'length')?.text ?? '';
  return [
    validationMessages.passwordTooWeak,
    `* ${length}`,
    `* At least ${REQUIRED_CHARACTER_KINDS} of the following ${kinds.length} types of characters:`,
    ...kinds,
  ].join('\n');
}
