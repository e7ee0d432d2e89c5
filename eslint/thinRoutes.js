// A route is thin (docs/ARCHITECTURE.md, "Modules"): shared schema, guard, its module's command or query,
// presenter. The database belongs to the commands and queries: a file in a module's routes/ imports nothing
// of drizzle-orm, of the database drivers or of platform/db/ (not even a row's type: rows are the
// presenter's), and reaches no query builder on a database handle (`db.select`, `tx.execute` …).
import path from 'node:path';
import { importVisitors } from './importSources.js';
import { isTestCode, placeOf } from './moduleBoundaries.js';

const DATABASE_PACKAGES = ['drizzle-orm', 'pg', '@electric-sql/pglite'];

/** What a database handle offers that runs or builds a statement. */
const STATEMENT_METHODS = new Set([
  'select',
  'selectDistinct',
  'selectDistinctOn',
  'insert',
  'update',
  'delete',
  'execute',
  'transaction',
  'query',
  'with',
  '$count',
  'refreshMaterializedView',
]);

/** The names a database handle goes by: `db`, `tx`, `q`, `database`, and `ctx.database.db`. */
const HANDLE_NAMES = new Set(['db', 'tx', 'q', 'database']);

/** Whether `file` is one of a module's routes (test code left out). */
export function isRouteFile(file) {
  const place = placeOf(file);
  return place !== null && place.area === 'modules' && place.inside[0] === 'routes' && !isTestCode(file);
}

/** What is wrong with a route file importing `source` (as written), or null. */
export function routeImportViolation(file, source) {
  if (DATABASE_PACKAGES.some((name) => source === name || source.startsWith(`${name}/`))) {
    return `A route runs no SQL: ${source} belongs to the module's commands and queries, which the route calls.`;
  }
  if (!source.startsWith('.')) return null;
  const target = placeOf(path.resolve(path.dirname(file), source));
  if (target !== null && target.area === 'platform' && target.inside[0] === 'db') {
    return `A route runs no SQL and handles no row: platform/db/${target.inside.slice(1).join('/')} is for the module's commands, queries and presenters.`;
  }
  return null;
}

const handleName = (node) => {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return null;
};

export const thinRoutes = {
  meta: {
    type: 'problem',
    docs: { description: "A module's routes run no SQL: they call its commands and queries." },
    schema: [],
    messages: { violation: '{{reason}}' },
  },
  create(context) {
    const file = context.filename;
    if (!isRouteFile(file)) return {};
    return {
      ...importVisitors(context, (source) => routeImportViolation(file, source)),
      MemberExpression(node) {
        if (node.computed || node.property.type !== 'Identifier' || !STATEMENT_METHODS.has(node.property.name)) return;
        const handle = handleName(node.object);
        if (handle === null || !HANDLE_NAMES.has(handle)) return;
        const reason = `A route runs no SQL: ${handle}.${node.property.name} belongs in a command or query of the module, which the route calls.`;
        context.report({ node, messageId: 'violation', data: { reason } });
      },
    };
  },
};
