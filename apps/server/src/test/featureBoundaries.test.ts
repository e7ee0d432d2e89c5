import fs from 'node:fs';
import path from 'node:path';
import { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './importGraph.js';
import { ruleViolations } from './lintRules.js';

const webSrc = path.join(repositoryRoot, 'apps', 'web', 'src');

/** The rule's messages for `code` as if it were the file at `relative` (under apps/web/src). */
const violations = ruleViolations('feature-boundaries', ['apps', 'web', 'src']);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('feature boundaries (eslint/featureBoundaries.js)', () => {
  it('lets a feature use another through its face, itself anywhere, and the shared folders', () => {
    expect(violations('features/campaigns/GeneralStep.tsx', "import { useGroups } from '../groups';")).toEqual([]);
    expect(violations('features/campaigns/GeneralStep.tsx', "import { useGroups } from '../groups/index';")).toEqual([]);
    expect(violations('features/conversations/inbox/cacheSync.ts', "import { heldCountKey } from '../../messaging';")).toEqual([]);
    expect(violations('features/campaigns/GeneralStep.tsx', "import { stepProps } from './stepProps';")).toEqual([]);
    expect(violations('features/campaigns/GeneralStep.tsx', "import { PageTable } from '../../components/PageTable';")).toEqual([]);
    expect(violations('features/campaigns/GeneralStep.tsx', "import { useConfig } from '../../app/configContext';")).toEqual([]);
  });

  it("refuses a feature's files to another feature", () => {
    expect(violations('features/campaigns/GeneralStep.tsx', "import { useGroups } from '../groups/queries';")).toEqual([
      'Use groups through its face (features/groups/index.ts), not queries.',
    ]);
    expect(violations('features/conversations/HeldNote.tsx', "import { useApproveHeld } from '../messaging/approvals/queries';")).toEqual([
      'Use messaging through its face (features/messaging/index.ts), not approvals/queries.',
    ]);
    expect(violations('features/accounts/PlanTab.tsx', "export { TopUpDialog } from '../billing/TopUpDialog';")).toHaveLength(1);
    expect(violations('features/accounts/PlanTab.tsx', "const page = () => import('../billing/TopUpDialog');")).toHaveLength(1);
  });

  it('leaves test code and the folders beside features/ free', () => {
    expect(violations('features/conversations/inbox/cacheSync.test.ts', "import { heldCountKey } from '../../messaging/approvals/queries';")).toEqual([]);
    expect(violations('app/routes.tsx', "import { ContactsPage } from '../features/contacts/ContactsPage';")).toEqual([]);
  });

  it('passes on every file of the features', { timeout: 180_000 }, () => {
    const files = filesUnder(path.join(webSrc, 'features'));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      violations(path.relative(webSrc, file), fs.readFileSync(file, 'utf8')).map((message) => `${path.relative(webSrc, file)}: ${message}`),
    );
    expect(found).toEqual([]);
  });

  it("is switched on for the web app by the project's lint configuration", async () => {
    const eslint = new ESLint({ cwd: repositoryRoot });
    const found = (await eslint.calculateConfigForFile(path.join(webSrc, 'features', 'campaigns', 'GeneralStep.tsx'))) as Linter.Config;
    expect(found.rules?.['parley/feature-boundaries']).toEqual([2]);
  });
});
