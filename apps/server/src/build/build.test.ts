import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProduct, templateManifest, type BuildStep, type Step, type StepRunner } from './build.js';
import { databaseTemplateVersion, readStamp } from './buildStamp.js';

// A checkout in miniature: the build's inputs, and steps that write what the real ones write.
const FILES: Record<string, string> = {
  'package.json': '{}',
  'package-lock.json': '{"lockfileVersion":3}',
  'tsconfig.base.json': '{}',
  'tsconfig.json': '{}',
  'packages/shared/package.json': '{}',
  'packages/shared/tsconfig.build.json': '{}',
  'packages/shared/src/index.ts': 'export const shared = 1;',
  'packages/shared/src/index.test.ts': 'test',
  'apps/server/package.json': '{}',
  'apps/server/tsconfig.build.json': '{}',
  'apps/server/src/main.ts': 'console.log(1);',
  'apps/server/src/main.test.ts': 'test',
  'apps/server/src/test/helpers.ts': 'export {};',
  'apps/server/migrations/0000_first.sql': 'create table a (id int);',
  'apps/web/package.json': '{}',
  'apps/web/tsconfig.json': '{}',
  'apps/web/vite.config.ts': 'export default {};',
  'apps/web/index.html': '<!doctype html>',
  'apps/web/src/App.tsx': 'export const App = 1;',
  'apps/web/src/App.test.tsx': 'test',
  'apps/web/public/favicon.svg': '<svg/>',
};

let root: string;
let ran: BuildStep[];
let failing: BuildStep | null;
let notes: string[];

const write = (file: string, text: string): void => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

const fakeRun: StepRunner = (step: Step) => {
  ran.push(step.step);
  if (step.step === failing) return Promise.resolve({ ok: false, output: 'vite: something broke\n' });
  switch (step.step) {
    case 'server':
      write('packages/shared/dist/index.js', 'built');
      write('apps/server/dist/main.js', 'built');
      break;
    case 'web':
      write('apps/web/dist/index.html', `built ${String(ran.length)}`);
      break;
    case 'template':
      write(
        'apps/server/dist/db-template/template.json',
        JSON.stringify({ version: databaseTemplateVersion(path.join(root, 'apps/server')) }),
      );
      break;
  }
  return Promise.resolve({ ok: true, output: '' });
};

async function build(mode: 'start' | 'build' = 'start'): Promise<{ ok: boolean; ran: BuildStep[] }> {
  ran = [];
  const ok = await buildProduct({ root, mode, run: fakeRun, note: (line) => notes.push(line) });
  return { ok, ran: [...ran].sort() };
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-build-'));
  for (const [file, text] of Object.entries(FILES)) write(file, text);
  failing = null;
  notes = [];
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the build before a start', () => {
  it('builds everything the first time, saying so, and nothing on the next start', async () => {
    expect(await build()).toEqual({ ok: true, ran: ['server', 'template', 'web'] });
    expect(notes).toEqual(
      expect.arrayContaining(['Building the server…', 'Building the web app…', 'Preparing the empty database…']),
    );
    expect(readStamp(root)).toEqual({ server: expect.any(Object) as object, web: expect.any(Object) as object });

    notes = [];
    expect(await build()).toEqual({ ok: true, ran: [] });
    expect(notes).toEqual([]);
  });

  it('builds again only the part whose sources changed, and not for a test file', async () => {
    await build();
    write('apps/server/src/main.test.ts', 'test 2');
    write('apps/server/src/test/helpers.ts', 'export const x = 2;');
    write('apps/web/src/App.test.tsx', 'test 2');
    expect((await build()).ran).toEqual([]);

    write('apps/web/src/App.tsx', 'export const App = 2;');
    expect((await build()).ran).toEqual(['web']);
    write('apps/server/src/routes.ts', 'export {};');
    expect((await build()).ran).toEqual(['server']);
    fs.rmSync(path.join(root, 'apps/server/src/routes.ts'));
    expect((await build()).ran).toEqual(['server']);
    write('packages/shared/src/index.ts', 'export const shared = 2;');
    expect((await build()).ran).toEqual(['server', 'web']);
    write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
    expect((await build()).ran).toEqual(['server', 'web']);
    expect((await build()).ran).toEqual([]);
  });

  it('builds again a part whose output is gone or was written since by another build', async () => {
    await build();
    fs.rmSync(path.join(root, 'apps/web/dist/index.html'));
    expect((await build()).ran).toEqual(['web']);
    // `tsc -b` (the type check) wrote the server's build info: it may have compiled other sources.
    write('apps/server/tsconfig.build.tsbuildinfo', '{}');
    expect((await build()).ran).toEqual(['server']);
    expect((await build()).ran).toEqual([]);
    // Another command built the web app (from sources that may be gone since).
    write('apps/web/dist/index.html', 'built elsewhere');
    expect((await build()).ran).toEqual(['web']);
  });

  it('prepares the database template again when the migrations change or it is gone', async () => {
    await build();
    write('apps/server/migrations/0001_second.sql', 'create table b (id int);');
    expect((await build()).ran).toEqual(['template']);
    fs.rmSync(templateManifest(root));
    expect((await build()).ran).toEqual(['template']);
    expect((await build()).ran).toEqual([]);
  });

  it('reports a failed build with its output, and builds that part again next time', async () => {
    failing = 'web';
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await build()).toEqual({ ok: false, ran: ['server', 'template', 'web'] });
      expect(stderr.mock.calls.map(([chunk]) => String(chunk)).join('')).toBe('Building the web app failed.\nvite: something broke\n');
    } finally {
      stderr.mockRestore();
    }
    expect(readStamp(root).web).toBeUndefined();

    failing = null;
    expect(await build()).toEqual({ ok: true, ran: ['web'] });
  });

  it('npm run build builds the server and the web app whatever the stamp says, the template when stale', async () => {
    await build();
    expect(await build('build')).toEqual({ ok: true, ran: ['server', 'web'] });
    expect((await build()).ran).toEqual([]);
  });
});
