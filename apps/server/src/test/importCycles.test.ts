import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, repositoryRoot, runtimeImports } from './importGraph.js';

/*
 * No file may load itself again through its imports, in the server, the web app, the shared package or the
 * browser tests: a cycle runs one file's body before the other's exports exist (docs/testing.md). Type-only
 * imports do not count: they are gone from the code that runs.
 */
const projects = ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/shared/tsconfig.json', 'e2e/tsconfig.json'];

describe('import cycles', () => {
  it.each(projects)('%s has none', (project) => {
    const cycles = importCycles(importGraph(project)).map((cycle) =>
      cycle.map((file) => path.relative(repositoryRoot, file)).join(' -> '),
    );
    expect(cycles).toEqual([]);
  });

  it('are found, type-only imports left out', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    const cycles = importCycles(graph);
    expect(cycles).toHaveLength(2);
    expect(cycles).toContainEqual(['d', 'd']);
    const [loop] = cycles.filter((cycle) => cycle.length === 4);
    expect(loop?.[0]).toBe(loop?.[3]);
    expect(new Set(loop)).toEqual(new Set(['a', 'b', 'c']));
    const imports = (text: string) => runtimeImports('file.ts', text);
    expect(imports(`import type { A } from './a.js'; export type { B } from './b.js'; import { c } from './c.js';`)).toEqual([
      './c.js',
    ]);
    expect(imports(`export * from './d.js'; const e = () => import('./e.js');`)).toEqual(['./d.js', './e.js']);
  });
});
