import {
  IMPORT_ERRORS_LISTED_MAX,
  importRowMessages,
  prepareImportRow,
  type ContactImportError,
  type ContactImportResult,
  type ImportPlan,
} from '@parley/shared';
import type { ImportedContact } from './contactImporterBatch.js';

/**
 * The row-by-row half of an import: reads each row with the shared rules, keeps the first row of each
 * number (later ones are duplicates), resolves the list a row names, counts, and hands back full batches.
 * It touches no database, so the job, the JSON call and the benchmark run exactly the same code.
 */

/** The account's lists, by id and by name (ignoring case): a file may name a list either way. */
export class ListLookup {
  private readonly byKey = new Map<string, string>();
  constructor(lists: readonly { id: string; name: string }[]) {
    for (const list of lists) this.byKey.set(list.name.trim().toLowerCase(), list.id);
    for (const list of lists) this.byKey.set(list.id.toLowerCase(), list.id);
  }
  find(cell: string): string | null {
    return this.byKey.get(cell.trim().toLowerCase()) ?? null;
  }
}

/** The running counts of an import's upload result; every submitted row is a success or an error. */
export class ImportTally {
  submitted = 0;
  success = 0;
  missingMobile = 0;
  duplicates = 0;
  readonly errors: ContactImportError[];
  private unlisted = 0;

  constructor(from?: Partial<ContactImportResult>) {
    this.submitted = from?.submitted ?? 0;
    this.success = from?.success ?? 0;
    this.missingMobile = from?.missingMobile ?? 0;
    this.duplicates = from?.duplicates ?? 0;
    this.errors = [...(from?.errors ?? [])];
    this.unlisted = this.submitted - this.success - this.errors.length;
  }

  fail(row: number, reason: string): void {
    if (this.errors.length < IMPORT_ERRORS_LISTED_MAX) this.errors.push({ row, reason });
    else this.unlisted += 1;
  }

  snapshot(): ContactImportResult {
    return {
      submitted: this.submitted,
      success: this.success,
      missingMobile: this.missingMobile,
      duplicates: this.duplicates,
      errors: [...this.errors],
      unlistedErrors: this.unlisted,
    };
  }
}

export class ImportRowPipeline {
  private batch: ImportedContact[] = [];
  /** Number → the row it first went in on. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly plan: ImportPlan,
    private readonly lists: ListLookup,
    readonly tally: ImportTally,
    private readonly batchSize: number,
  ) {}

  /** Reads one data row; answers a full batch when this row completed one. */
  accept(row: number, values: readonly string[]): ImportedContact[] | null {
    const outcome = this.read(row, values);
    if (outcome.kind === 'blank') return null;
    this.tally.submitted += 1;
    switch (outcome.kind) {
      case 'missingMobile':
        this.tally.missingMobile += 1;
        this.tally.fail(row, importRowMessages.missingMobile);
        return null;
      case 'duplicate':
        this.tally.duplicates += 1;
        this.tally.fail(row, importRowMessages.duplicate(outcome.firstRow));
        return null;
      case 'error':
        this.tally.fail(row, outcome.reason);
        return null;
      case 'contact':
        this.tally.success += 1;
        this.seen.set(outcome.item.contact.mobile.number, row);
        this.batch.push(outcome.item);
        return this.batch.length >= this.batchSize ? this.take() : null;
    }
  }

  /**
   * For a resumed import: a row an earlier attempt already wrote and counted. Only its number is
   * remembered, so later rows with the same number are still found to be duplicates.
   */
  replay(row: number, values: readonly string[]): void {
    const outcome = this.read(row, values);
    if (outcome.kind === 'contact') this.seen.set(outcome.item.contact.mobile.number, row);
  }

  /** The rows read since the last batch. */
  take(): ImportedContact[] {
    const batch = this.batch;
    this.batch = [];
    return batch;
  }

  private read(row: number, values: readonly string[]): RowOutcome {
    const prepared = prepareImportRow(values, this.plan);
    switch (prepared.kind) {
      case 'blank':
      case 'missingMobile':
      case 'error':
        return prepared;
      case 'contact': {
        const { contact } = prepared;
        const firstRow = this.seen.get(contact.mobile.number);
        if (firstRow !== undefined) return { kind: 'duplicate', firstRow };
        let listId: string | null = null;
        if (contact.list !== null) {
          listId = this.lists.find(contact.list);
          if (listId === null) return { kind: 'error', reason: importRowMessages.listNotFound(contact.list) };
        }
        return { kind: 'contact', item: { row, contact, listId } };
      }
    }
  }
}

type RowOutcome =
  | { kind: 'blank' }
  | { kind: 'missingMobile' }
  | { kind: 'duplicate'; firstRow: number }
  | { kind: 'error'; reason: string }
  | { kind: 'contact'; item: ImportedContact };
