import { asc, eq } from 'drizzle-orm';
import {
  checkImportMapping,
  compileImportPlan,
  completeImportMapping,
  importColumnNames,
  importRowMessages,
  isImportField,
  type ImportDefaults,
  type ImportMapping,
  type ImportPlan,
  type MergeStrategy,
} from '@parley/shared';
import type { Queryable } from '../../platform/db/client.js';
import { accounts, contactLists } from '../../platform/db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import type { BatchOptions } from './contactImporterBatch.js';
import { ListLookup } from './contactImporterRows.js';

/** What an import needs to know about its account: the default country and the lists rows may name. */
export interface AccountImportContext {
  readonly defaultCountry: string;
  readonly lists: ListLookup;
}

export async function accountImportContext(q: Queryable, accountId: string): Promise<AccountImportContext> {
  const [account] = await q
    .select({ defaultCountry: accounts.defaultCountry })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  if (!account) throw notFound('The account');
  const lists = await q
    .select({ id: contactLists.id, name: contactLists.name })
    .from(contactLists)
    .where(eq(contactLists.accountId, accountId))
    .orderBy(asc(contactLists.createdAt));
  return { defaultCountry: account.defaultCountry, lists: new ListLookup(lists) };
}

export const badImport = (message: string): AppError => new AppError(400, 'bad_request', message);

export interface ResolvedMapping {
  readonly columns: string[];
  readonly mapping: ImportMapping;
  readonly defaults: ImportDefaults;
}

/**
 * The mapping an import runs with: the caller's choices over the automatic mapping, and the account's
 * default country when neither a column nor a default gives one. Refused with the wizard's message when a
 * mandatory field has no source, and when a default names a list the account does not have.
 */
export function resolveMapping(
  header: readonly string[],
  given: ImportMapping | undefined,
  givenDefaults: ImportDefaults | undefined,
  context: AccountImportContext,
): ResolvedMapping {
  const columns = importColumnNames(header);
  const mapping = completeImportMapping(columns, given);
  const defaults: ImportDefaults = {};
  for (const [target, value] of Object.entries(givenDefaults ?? {})) if (value.trim() !== '') defaults[target] = value.trim();
  const hasCountryColumn = Object.values(mapping).includes('country');
  if (!hasCountryColumn && defaults.country === undefined) defaults.country = context.defaultCountry;
  const problem = checkImportMapping(columns, mapping, defaults);
  if (problem !== null) throw badImport(problem);
  if (defaults.listId !== undefined && context.lists.find(defaults.listId) === null) {
    throw badImport(importRowMessages.listNotFound(defaults.listId));
  }
  return { columns, mapping, defaults };
}

export function planOf(resolved: ResolvedMapping, context: AccountImportContext): ImportPlan {
  return compileImportPlan(resolved.columns, resolved.mapping, resolved.defaults, context.defaultCountry);
}

/** Which of the replaceable fields the file feeds, by a column or a default. */
export function batchOptions(accountId: string, strategy: MergeStrategy, resolved: ResolvedMapping): BatchOptions {
  const fed = new Set<string>([
    ...Object.values(resolved.mapping).filter((t): t is string => t !== null && isImportField(t)),
    ...Object.keys(resolved.defaults),
  ]);
  return {
    accountId,
    strategy,
    covers: { firstName: fed.has('firstName'), lastName: fed.has('lastName'), email: fed.has('email') },
  };
}
