import fs from 'node:fs';
import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './importGraph.js';
import { ruleViolations } from './lintRules.js';

const src = path.join(repositoryRoot, 'apps', 'server', 'src');

/** The rule's messages for `code` as if it were the file at `relative` (under apps/server/src). */
const violations = ruleViolations('thin-routes', ['apps', 'server', 'src']);

/** Every file in a module's routes/ folder, test files included (the rule itself leaves those out). */
function routeFiles(): string[] {
  const modules = path.join(src, 'modules');
  return fs
    .readdirSync(modules)
    .map((name) => path.join(modules, name, 'routes'))
    .filter((dir) => fs.existsSync(dir))
    .flatMap((dir) => fs.readdirSync(dir).map((name) => path.join(dir, name)))
    .filter((file) => file.endsWith('.ts'));
}

const ROUTE = 'modules/billing/routes/charges.ts';

describe('thin routes (eslint/thinRoutes.js)', () => {
  it("lets a route call its module's queries and commands, and register a DELETE", () => {
    const code = [
      "import { listCharges } from '../queries.js';",
      "import { loadAccount } from '../../billing/index.js';",
      "import type { AppContext } from '../../../platform/context.js';",
      'export const routes = (app, ctx) => {',
      '  const db = ctx.database.db;',
      "  app.delete('/x', async () => listCharges(db, 'a', { offset: 0, limit: 10 }));",
      '  return ctx.database.ping();',
      '};',
    ].join('\n');
    expect(violations(ROUTE, code)).toEqual([]);
  });

  it('refuses drizzle-orm and the database drivers in a route', () => {
    expect(violations(ROUTE, "import { count, desc, eq } from 'drizzle-orm';")).toEqual([
      'A route runs no SQL: drizzle-orm belongs to the module\'s commands and queries, which the route calls.',
    ]);
    expect(violations(ROUTE, "import { alias } from 'drizzle-orm/pg-core';")).toHaveLength(1);
    expect(violations(ROUTE, "import pg from 'pg';")).toHaveLength(1);
  });

  it('refuses platform/db/ in a route, a type of a row as well', () => {
    expect(violations(ROUTE, "import { accountTransactions } from '../../../platform/db/schema/index.js';")).toEqual([
      "A route runs no SQL and handles no row: platform/db/schema/index.js is for the module's commands, queries and presenters.",
    ]);
    expect(violations(ROUTE, "import type { Db } from '../../../platform/db/client.js';")).toHaveLength(1);
    expect(violations(ROUTE, "import { isUuid } from '../../../platform/db/ids.js';")).toHaveLength(1);
  });

  it('refuses a query builder reached on a database handle in a route', () => {
    expect(violations(ROUTE, 'const rows = await ctx.database.db.select().from(t);')).toEqual([
      'A route runs no SQL: db.select belongs in a command or query of the module, which the route calls.',
    ]);
    expect(violations(ROUTE, 'await db.transaction(async (tx) => tx.execute(statement));')).toHaveLength(2);
    expect(violations(ROUTE, 'await db.insert(t).values(v); await q.update(t).set(v); await db.delete(t);')).toHaveLength(3);
  });

  it("leaves the module's other files and every test free", () => {
    const code = "import { eq } from 'drizzle-orm';\nconst rows = await db.select().from(t).where(eq(t.id, 1));";
    expect(violations('modules/billing/queries.ts', code)).toEqual([]);
    expect(violations('modules/billing/routes/charges.test.ts', code)).toEqual([]);
    expect(violations('platform/db/readiness.ts', code)).toEqual([]);
  });

  it("passes on every route of the server's modules", () => {
    const files = routeFiles();
    expect(files.length).toBeGreaterThan(40);
    const found = files.flatMap((file) =>
      violations(path.relative(src, file), fs.readFileSync(file, 'utf8')).map((message) => `${path.relative(src, file)}: ${message}`),
    );
    expect(found).toEqual([]);
  });

  it("is switched on for the server's code by the project's lint configuration", async () => {
    const eslint = new ESLint({ cwd: repositoryRoot });
    const found = (await eslint.calculateConfigForFile(path.join(src, ROUTE))) as Linter.Config;
    expect(found.rules?.['parley/thin-routes']).toEqual([2]);
  });
});
