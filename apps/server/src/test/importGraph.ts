import path from 'node:path';
import ts from 'typescript';

/** The repository's root, from this file (apps/server/src/test/). */
export const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

/** A TypeScript project: its files and compiler options, as `tsc -p <config>` sees them. */
export function readProject(configPath: string): { files: string[]; options: ts.CompilerOptions } {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.resolve(repositoryRoot, configPath), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`);
  return { files: parsed.fileNames.filter((file) => !file.endsWith('.d.ts')), options: parsed.options };
}

/** Whether an import or export declaration brings in only types (`import type`, `export type`). */
function typeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  return statement.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword;
}

/** The module specifiers a file loads when it runs: static imports and re-exports, and `import()`. */
export function runtimeImports(file: string, text: string): string[] {
  return importSpecifiers(file, text, false);
}

/** The module specifiers of a file's imports, re-exports and `import()`, type-only ones when asked. */
function importSpecifiers(file: string, text: string, withTypes: boolean): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      if ((withTypes || !typeOnly(node)) && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/**
 * The files a build compiles, as `tsc -p <config> --listFilesOnly` lists them without libraries and
 * packages: those its configuration includes, and every file of the repository they import, types
 * included (an excluded file that is imported is compiled all the same).
 */
export function compiledFiles(configPath: string): string[] {
  const { files, options } = readProject(configPath);
  const cache = ts.createModuleResolutionCache(repositoryRoot, (name) => name, options);
  const compiled = new Set(files.map((file) => path.resolve(file)));
  const queue = [...compiled];
  for (let at = 0; at < queue.length; at += 1) {
    const file = queue[at] ?? '';
    const text = ts.sys.readFile(file);
    if (text === undefined) throw new Error(`cannot read ${file}`);
    for (const specifier of importSpecifiers(file, text, true)) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule;
      if (resolved === undefined || resolved.isExternalLibraryImport === true) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (target.includes(`${path.sep}node_modules${path.sep}`) || target.endsWith('.d.ts') || compiled.has(target)) continue;
      compiled.add(target);
      queue.push(target);
    }
  }
  return [...compiled];
}

/**
 * Each file of the project with the files of the repository it loads when it runs (type-only imports left
 * out: they are gone from the emitted code), resolved as the compiler resolves them. Files of other
 * workspaces (the web app's `@parley/shared`) are included as targets, node_modules are not.
 */
export function importGraph(configPath: string): Map<string, string[]> {
  const { files, options } = readProject(configPath);
  const cache = ts.createModuleResolutionCache(repositoryRoot, (name) => name, options);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = ts.sys.readFile(file);
    if (text === undefined) throw new Error(`cannot read ${file}`);
    const targets = new Set<string>();
    for (const specifier of runtimeImports(file, text)) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys, cache).resolvedModule;
      if (resolved === undefined || resolved.isExternalLibraryImport === true) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (!target.includes(`${path.sep}node_modules${path.sep}`)) targets.add(target);
    }
    graph.set(path.resolve(file), [...targets]);
  }
  return graph;
}

/**
 * The import cycles of a graph: one cycle, as a path of files from a file back to it, for each group of
 * files that import each other (Tarjan's strongly connected components), and each file that imports itself.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** A shortest path from the component's first file back to itself, staying inside the component. */
function cycleThrough(graph: Map<string, string[]>, component: Set<string>): string[] {
  const [start] = component;
  if (start === undefined) return [];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at += 1) {
    const file: string = queue[at] ?? start;
    for (const target of graph.get(file) ?? ([] as string[])) {
      if (!component.has(target)) continue;
      if (target === start) {
        const cycle = [file];
        for (let step = cameFrom.get(file); step !== undefined; step = cameFrom.get(step)) cycle.unshift(step);
        if (cycle[0] !== start) cycle.unshift(start);
        return [...cycle, start];
      }
      if (!cameFrom.has(target) && target !== start) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
