import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './importGraph.js';
import { ruleViolations } from './lintRules.js';

const src = path.join(repositoryRoot, 'apps', 'server', 'src');

/** The rule's messages for `code` as if it were the file at `relative` (under apps/server/src). */
const violations = ruleViolations('module-boundaries', ['apps', 'server', 'src']);

describe('module boundaries (eslint/moduleBoundaries.js)', () => {
  it('lets a module enter another through its face, and itself anywhere', () => {
    expect(violations('modules/campaigns/campaignSender.ts', "import { presentContact } from '../contacts/index.js';")).toEqual([]);
    expect(violations('modules/contacts/routes/contacts.ts', "import { findContact } from '../queries.js';")).toEqual([]);
    expect(violations('app/v1Routes.ts', "import { contactRoutes } from '../modules/contacts/index.js';")).toEqual([]);
  });

  it("refuses a module's internals, from another module or from outside the modules", () => {
    expect(violations('modules/campaigns/campaignSender.ts', "import { findContact } from '../contacts/queries.js';")).toEqual([
      'Import contacts through its face (modules/contacts/index.ts), not queries.js.',
    ]);
    expect(violations('cli/commands.ts', "export { findContact } from '../modules/contacts/queries.js';")).toHaveLength(1);
  });

  it("refuses anyone's import of another module's routes", () => {
    expect(violations('modules/lists/listManager.ts', "import { contactRoutes } from '../contacts/routes/contacts.js';")).toEqual([
      'The routes of contacts are registered through its face, never imported.',
    ]);
  });

  it('refuses platform/ importing a module at run time, and allows a type of its face', () => {
    expect(violations('platform/http/rateLimit.ts', "import { bearerToken } from '../../modules/identity/index.js';")).toHaveLength(1);
    expect(violations('platform/http/rateLimit.ts', "import type { Principal } from '../../modules/identity/authenticator.js';")).toHaveLength(1);
    expect(violations('platform/http/rateLimit.ts', "import type { Principal } from '../../modules/identity/index.js';")).toEqual([]);
  });

  it('leaves test code free to reach inside modules', () => {
    expect(violations('modules/campaigns/campaignSender.test.ts', "import { findContact } from '../contacts/queries.js';")).toEqual([]);
    expect(violations('test/factories.ts', "import { findContact } from '../modules/contacts/queries.js';")).toEqual([]);
  });

  it("is switched on for the server's code by the project's lint configuration", async () => {
    const eslint = new ESLint({ cwd: repositoryRoot });
    const config = (await eslint.calculateConfigForFile(path.join(src, 'modules', 'contacts', 'queries.ts'))) as Linter.Config;
    expect(config.rules?.['parley/module-boundaries']).toEqual([2]);
  });
});
