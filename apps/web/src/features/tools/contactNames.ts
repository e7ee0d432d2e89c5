import type { Contact, NameSuggestion } from '@parley/shared';

/** What "Use these names" did: the contact of the number renamed, or a new contact with the number. */
export type NamesSaved = { kind: 'renamed' | 'created'; name: string };

/**
 * The account's contact with exactly this number, among those a contains-search of the number found (the
 * search matches anywhere in the mobile, so a longer number holding these digits is not the contact).
 */
export const contactWithNumber = (found: readonly Contact[], number: string): Contact | null =>
  found.find((contact) => contact.mobile.number === number) ?? null;

export const suggestionName = (names: NameSuggestion): string => [names.firstName, names.lastName].filter((n) => n !== '').join(' ');

/** The notice after "Use these names". */
export function namesSavedText(outcome: NamesSaved): string {
  switch (outcome.kind) {
    case 'renamed':
      return `The contact with this number is now ${outcome.name}.`;
    case 'created':
      return `Added ${outcome.name} to Contacts with this number.`;
  }
}
