import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { repositoryRoot } from './importGraph.js';

/* Test support for the project's own lint rules (eslint/parleyPlugin.js): one rule run over a planted file. */

interface PluginModule {
  parleyPlugin: NonNullable<Linter.Config['plugins']>[string];
}

const pluginPath = path.join(repositoryRoot, 'eslint', 'parleyPlugin.js');
const { parleyPlugin } = (await import(pathToFileURL(pluginPath).href)) as PluginModule;

/**
 * The messages of the rule `parley/<rule>` for `code`, as if it were the file at `relative` under `root`
 * (a folder of the repository). Other rules' messages (a file's own disable comments) are left out.
 */
export function ruleViolations(rule: string, root: string[]): (relative: string, code: string) => string[] {
  const ruleId = `parley/${rule}`;
  const config: Linter.Config[] = [
    { files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser }, plugins: { parley: parleyPlugin }, rules: { [ruleId]: 'error' } },
  ];
  const base = path.join(repositoryRoot, ...root);
  return (relative, code) =>
    new Linter({ configType: 'flat' })
      .verify(code, config, { filename: path.join(base, relative) })
      .filter((message) => message.ruleId === ruleId)
      .map((message) => message.message);
}
