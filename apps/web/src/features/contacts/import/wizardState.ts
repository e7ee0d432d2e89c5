import { autoMapColumns, checkImportMapping, type ImportDefaults, type ImportMapping } from '@parley/shared';

/** The wizard's defaults: the account's country, nothing else (country is required, with a default). */
export const initialDefaults = (defaultCountry: string): ImportDefaults => ({ country: defaultCountry });

/** Defaults as sent: empty ones left out. */
export const sentDefaults = (defaults: ImportDefaults): ImportDefaults =>
  Object.fromEntries(Object.entries(defaults).filter(([, v]) => v.trim() !== ''));

/**
 * The mapping as sent: only the columns whose target differs from the automatic mapping (the server maps
 * the rest the same way), so a file with a hundred columns still fits in a URL.
 */
export function mappingChanges(columns: readonly string[], mapping: ImportMapping): ImportMapping {
  const auto = autoMapColumns(columns);
  const changes: ImportMapping = {};
  for (const column of columns) {
    const target = mapping[column] ?? null;
    if (target !== (auto[column] ?? null)) changes[column] = target;
  }
  return changes;
}

/** 'Missing Mandatory Field: ...' and the other mapping problems, or null. */
export const mappingProblem = (columns: readonly string[], mapping: ImportMapping, defaults: ImportDefaults): string | null =>
  checkImportMapping(columns, mapping, sentDefaults(defaults));
