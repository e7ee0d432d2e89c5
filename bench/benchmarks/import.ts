import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { seededRandom } from '@parley/shared';
import type { BenchContext, Benchmark, DatabaseTarget } from '../lib/benchmark.js';
import { ratio } from '../lib/load.js';
import { repoRoot } from '../lib/paths.js';
import { tempDir } from '../lib/tempDir.js';

/*
 * CSV import: a realistic 100,000-row file through the importer the job runs (modules/contacts/contactImporterJob:
 * both passes over the file, the shared row rules, batched upserts, progress), on the built server's
 * modules, beside bare multi-row INSERTs of the same finished rows into the same table in the same run.
 * The target (DESIGN.md) is under 5 s on PostgreSQL.
 */

const ROWS = 100_000;
const TARGET_SECONDS = 5;
const BASELINE_ROWS_PER_STATEMENT = 1000;

const serverDist = path.join(repoRoot, 'apps', 'server', 'dist');
const sharedDist = path.join(repoRoot, 'packages', 'shared', 'dist');

/** The parts of the built server this benchmark drives (loaded at run time: bench builds on its own). */
interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: { execute(query: unknown): Promise<unknown> };
  /** The drivers themselves, for the baseline's bare statements. */
  readonly pool: { query(text: string, values: unknown[]): Promise<unknown> };
  close(): Promise<void>;
}
interface ServerModules {
  openDatabase(options: { databaseUrl: string | null; dataDir: string; poolMax: number }): Promise<Database>;
  migrateDatabase(database: Database): Promise<void>;
  runContactImport(
    database: Database,
    importId: string,
    options?: { onCommitted?: (rows: number) => void },
  ): Promise<{ status: string; result: { submitted: number; success: number; missingMobile: number; duplicates: number; unlistedErrors: number; errors: unknown[] } } | null>;
  sql: Sql;
}
interface Sql {
  (strings: TemplateStringsArray, ...values: unknown[]): unknown;
  join(chunks: unknown[], separator: unknown): unknown;
}

async function load<T>(...segments: string[]): Promise<T> {
  return (await import(pathToFileURL(path.join(...segments)).href)) as T;
}

interface SharedModule {
  importColumnNames(header: readonly string[]): string[];
  autoMapColumns(columns: readonly string[]): Record<string, string | null>;
  compileImportPlan(columns: readonly string[], mapping: Record<string, string | null>, defaults: Record<string, string>, country: string): unknown;
  prepareImportRow(values: readonly string[], plan: unknown): PreparedRow;
}
type PreparedRow =
  | {
      kind: 'contact';
      contact: {
        mobile: { valid: boolean; number: string; country: string; errorDescription?: string };
        firstName: string;
        lastName: string;
        email: string | null;
        tags: string[];
        attributes: Record<string, string>;
      };
    }
  | { kind: 'blank' | 'missingMobile' | 'error' };

async function serverModules(): Promise<ServerModules & { shared: SharedModule }> {
  const client = await load<Pick<ServerModules, 'openDatabase'>>(serverDist, 'platform', 'db', 'client.js');
  const migrate = await load<Pick<ServerModules, 'migrateDatabase'>>(serverDist, 'platform', 'db', 'migrate.js');
  const job = await load<Pick<ServerModules, 'runContactImport'>>(serverDist, 'modules', 'contacts', 'contactImporterJob.js');
  const drizzle = await load<{ sql: ServerModules['sql'] }>(repoRoot, 'node_modules', 'drizzle-orm', 'index.js');
  const shared = await load<SharedModule>(sharedDist, 'index.js');
  return { ...client, ...migrate, ...job, sql: drizzle.sql, shared };
}

// ---------------------------------------------------------------------------------------------------
// The file: what a dental practice exports from its CRM, with the usual flaws of a real list.

const firstNames = ['Ann', 'Bob', 'Chloé', 'Dan', 'Eve', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jon', 'Kemi', 'Liam', 'Maya', 'Noor', 'Omar', 'Pia'];
const lastNames = ['Lee', 'Okafor', 'Martin', 'Wu', 'Adams', 'Haddad', 'Kim', 'Sato', 'García', 'Smith', 'Adeyemi', 'Murphy', 'Patel', 'Khan', 'Rossi', 'Berg'];
const companies = ['', '', 'Harbor Dental', 'Bay Clinic', 'Acme, Inc.', 'North & Sons'];
const cities = ['San Francisco', 'Oakland', 'London', 'Leeds', 'Austin', 'Seattle'];
const tagSets = ['', 'Patients', 'Patients;VIP', 'Newsletter', 'Patients;Recall 2025'];
const exchanges = ['234', '267', '298', '345', '382', '426', '459', '523', '576', '638'];

const csvCell = (v: string): string => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** 100,000 rows: US and GB numbers in the formats people type, 1% without a number, some repeats and typos. */
function generateRows(rows: number): { header: string[]; cells: string[][] } {
  const random = seededRandom(20260101);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const header = ['First Name', 'Last Name', 'Mobile', 'Email', 'Country', 'Tags', 'Company', 'City', 'Notes'];
  const cells: string[][] = [];
  const numbers: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    const first = pick(firstNames);
    const last = pick(lastNames);
    const r = random();
    let mobile: string;
    let country = 'US';
    if (r < 0.01) mobile = '';
    else if (r < 0.015 && numbers.length > 0) mobile = pick(numbers);
    else if (r < 0.02) mobile = String(10000 + i);
    else if (r < 0.12) {
      country = 'GB';
      mobile = `07400 ${String(100000 + i).slice(-6)}`;
    } else {
      const ex = exchanges[Math.floor(i / 10000) % exchanges.length] ?? '234';
      const line = String(i % 10000).padStart(4, '0');
      const style = i % 3;
      mobile = style === 0 ? `+1 415-${ex}-${line}` : style === 1 ? `(415) ${ex}-${line}` : `415${ex}${line}`;
    }
    if (mobile !== '' && numbers.length < 5000) numbers.push(mobile);
    const email = random() < 0.7 ? `${first.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}.${i}@example.com` : '';
    const notes = random() < 0.05 ? 'Prefers texts, "after 5pm"\nand weekends' : '';
    cells.push([first, last, mobile, email, country, pick(tagSets), pick(companies), pick(cities), notes]);
  }
  return { header, cells };
}

const toCsv = ({ header, cells }: { header: string[]; cells: string[][] }): string =>
  `${[header, ...cells].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;

// ---------------------------------------------------------------------------------------------------

async function openBenchDatabase(modules: ServerModules, target: DatabaseTarget, context: BenchContext): Promise<Database> {
  const dataDir = await tempDir('parley-bench-import-', context.scope);
  const database = await modules.openDatabase({
    databaseUrl: target.kind === 'postgres' ? target.url : null,
    dataDir,
    poolMax: 4,
  });
  context.scope.defer(() => database.close());
  await modules.migrateDatabase(database);
  return database;
}

async function createAccount(modules: ServerModules, database: Database): Promise<string> {
  const { sql } = modules;
  const id = randomUUID();
  await database.db.execute(
    sql`insert into plans (id, name, price, is_trial, pricing) values ('bench-plan', 'Bench', '0', false, '{}'::jsonb) on conflict do nothing`,
  );
  await database.db.execute(sql`
    insert into accounts (id, name, plan_id, support, questionnaire)
    values (${id}, ${`Bench ${id}`}, 'bench-plan', '{}'::jsonb, '{}'::jsonb)`);
  return id;
}

interface Timing {
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
}

const timing = (rows: number, ms: number): Timing => ({
  rows,
  seconds: Math.round(ms) / 1000,
  rowsPerSecond: Math.round((rows / ms) * 1000),
});

/** The rows the import writes, finished outside the clock, inserted 1,000 to a statement. */
async function baselineInsert(
  modules: ServerModules & { shared: SharedModule },
  database: Database,
  table: { header: string[]; cells: string[][] },
): Promise<Timing> {
  const { shared } = modules;
  const columns = shared.importColumnNames(table.header);
  const plan = shared.compileImportPlan(columns, shared.autoMapColumns(columns), {}, 'US');
  const seen = new Set<string>();
  const finished: unknown[] = [];
  for (const cells of table.cells) {
    const prepared = shared.prepareImportRow(cells, plan);
    if (prepared.kind !== 'contact') continue;
    const c = prepared.contact;
    if (seen.has(c.mobile.number)) continue;
    seen.add(c.mobile.number);
    finished.push(c);
  }
  const accountId = await createAccount(modules, database);
  const driver = database.pool;
  const insertColumns = 'id, account_id, first_name, last_name, mobile_number, mobile_country, email, attributes, tags, valid, error_description';
  // Statements and values are built before the clock starts: the baseline is the database's share alone.
  const statements: { text: string; values: unknown[] }[] = [];
  for (let at = 0; at < finished.length; at += BASELINE_ROWS_PER_STATEMENT) {
    const slice = finished.slice(at, at + BASELINE_ROWS_PER_STATEMENT) as Extract<PreparedRow, { kind: 'contact' }>['contact'][];
    const values: unknown[] = [];
    const tuples = slice.map((c) => {
      const n = values.length;
      values.push(
        randomUUID(),
        accountId,
        c.firstName,
        c.lastName,
        c.mobile.number,
        c.mobile.country,
        c.email,
        JSON.stringify(c.attributes),
        `{${c.tags.map((t) => `"${t}"`).join(',')}}`,
        c.mobile.valid,
        c.mobile.errorDescription ?? null,
      );
      return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}::jsonb, $${n + 9}::text[], $${n + 10}, $${n + 11})`;
    });
    statements.push({ text: `insert into contacts (${insertColumns}) values ${tuples.join(', ')}`, values });
  }
  const started = performance.now();
  for (const statement of statements) await driver.query(statement.text, statement.values);
  return timing(finished.length, performance.now() - started);
}

async function measuredImport(
  modules: ServerModules,
  database: Database,
  file: Buffer,
  context: BenchContext,
): Promise<Timing & { result: unknown; status: string }> {
  const { sql } = modules;
  const accountId = await createAccount(modules, database);
  const importId = randomUUID();
  await database.db.execute(sql`
    insert into contact_imports (id, account_id, file_name, file, file_size, mapping, defaults)
    values (${importId}, ${accountId}, 'bench.csv', ${file}, ${file.length}, '{"First Name":"firstName","Last Name":"lastName","Mobile":"mobile","Email":"email","Country":"country","Tags":"tags","Company":"company","City":"city","Notes":"notes"}'::jsonb, '{}'::jsonb)`);
  let lastLog = 0;
  const started = performance.now();
  const done = await modules.runContactImport(database, importId, {
    onCommitted: (rows) => {
      if (rows - lastLog >= 25_000) {
        lastLog = rows;
        context.log(`  ${rows} rows after ${Math.round(performance.now() - started)} ms`);
      }
    },
  });
  const ms = performance.now() - started;
  if (done === null) throw new Error('the import vanished');
  return { ...timing(ROWS, ms), status: done.status, result: { ...done.result, errors: done.result.errors.length } };
}

export const importBenchmark: Benchmark = {
  description: `CSV import of ${ROWS.toLocaleString('en')} rows through the job's importer beside bare multi-row INSERTs`,
  async run(context) {
    const modules = await serverModules();
    context.log(`generating ${ROWS} rows`);
    const table = generateRows(ROWS);
    const file = Buffer.from(toCsv(table), 'utf8');
    const database = await openBenchDatabase(modules, context.database, context);
    context.log(`baseline: bare multi-row INSERTs (${BASELINE_ROWS_PER_STATEMENT} rows each) on ${database.kind}`);
    const baseline = await baselineInsert(modules, database, table);
    context.log(`baseline: ${baseline.rows} rows in ${baseline.seconds} s`);
    context.log('measured: the import job');
    const measured = await measuredImport(modules, database, file, context);
    context.log(`measured: ${measured.rows} rows in ${measured.seconds} s`);
    return {
      parameters: {
        rows: ROWS,
        fileBytes: file.length,
        targetSeconds: TARGET_SECONDS,
        baselineRowsPerStatement: BASELINE_ROWS_PER_STATEMENT,
      },
      measured: { ...measured, meetsTarget: measured.seconds < TARGET_SECONDS },
      baseline,
      ratios: {
        seconds: ratio(measured.seconds, baseline.seconds),
        rowsPerSecond: ratio(measured.rowsPerSecond, baseline.rowsPerSecond),
      },
    };
  },
};
