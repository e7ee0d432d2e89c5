import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledFiles, repositoryRoot, runtimeImports } from './importGraph.js';

/*
 * dist holds no test code: the files the server build compiles (tsc -p apps/server/tsconfig.build.json,
 * which also pulls in whatever those files import) are neither tests nor test helpers. Test helpers,
 * local peers and test workers live in test/ folders, which the build excludes (docs/testing.md).
 */

/** Why a file of the build is test code, or null. */
export function testCodeReason(file: string, text: string): string | null {
  const name = path.basename(file);
  const folders = path.dirname(file).split(path.sep);
  if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(name)) return 'a test file';
  if (folders.includes('test') || folders.includes('tests') || folders.includes('__tests__')) return 'in a test folder';
  if (/^test[A-Z_.]/.test(name) || /^testing\./.test(name) || /[Ff]ixtures?\.[cm]?[jt]sx?$/.test(name)) {
    return 'named as test code';
  }
  const testing = runtimeImports(file, text).find((specifier) => /^(vitest|@vitest\/|@playwright\/test)/.test(specifier));
  return testing === undefined ? null : `imports ${testing}`;
}

describe('the server build', () => {
  it('compiles no test code', () => {
    const files = compiledFiles('apps/server/tsconfig.build.json');
    expect(files.length).toBeGreaterThan(100);
    const testCode = files.flatMap((file) => {
      const reason = testCodeReason(file, fs.readFileSync(file, 'utf8'));
      return reason === null ? [] : [`${path.relative(repositoryRoot, file)}: ${reason}`];
    });
    expect(testCode).toEqual([]);
  });

  it('tells test code by its name, its folder and its imports', () => {
    const reason = (file: string, text = '') => testCodeReason(path.join('/r/apps/server/src', file), text);
    expect(reason('modules/messaging/dispatcher.ts', `import { sql } from 'drizzle-orm';`)).toBeNull();
    expect(reason('messaging/testament.ts')).toBeNull();
    expect(reason('modules/messaging/dispatcher.test.ts')).toBe('a test file');
    expect(reason('messaging/test/worker.ts')).toBe('in a test folder');
    expect(reason('carriers/smpp/testSmsc.ts')).toBe('named as test code');
    expect(reason('contacts/testing.ts')).toBe('named as test code');
    expect(reason('messaging/dispatcherFixtures.ts')).toBe('named as test code');
    expect(reason('messaging/peer.ts', `import { expect } from 'vitest';`)).toBe('imports vitest');
  });
});
