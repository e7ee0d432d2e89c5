// @ts-check
// Builds what Parley runs from: the server (TypeScript), the web app (Vite) and the empty database
// template. `npm start` builds only what changed since the last build (usually nothing); `npm run build`
// builds the server and the web app again. JavaScript, type-checked, because it runs before anything is built.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { consoleNote } from './consoleNote.js';
import {
  BUILD_PARTS,
  PART_NAMES,
  databaseTemplateVersion,
  hashFiles,
  isStale,
  outputsFingerprint,
  readJson,
  readStamp,
  writeStamp,
} from './buildStamp.js';

/** @typedef {import('./buildStamp.js').BuildPart} BuildPart */
/** @typedef {BuildPart | 'template'} BuildStep */
/** @typedef {{ command: string; args: string[]; cwd: string }} Command */
/**
 * A build step's commands, run one after the other. `show` lets their output through (npm run build);
 * otherwise it is kept and printed only if the step fails.
 * @typedef {{ step: BuildStep; commands: Command[]; show: boolean }} Step
 * @typedef {(step: Step) => Promise<{ ok: boolean; output: string }>} StepRunner
 */

/** The empty database template, written by the server's build (platform/db/pgliteTemplate.ts). */
export const templateManifest = (/** @type {string} */ root) => path.join(root, 'apps/server/dist/db-template/template.json');

/** Whether the template is missing or was made of other migrations or another PGlite. */
export function templateIsStale(/** @type {string} */ root) {
  try {
    const manifest = /** @type {{ version?: unknown }} */ (readJson(templateManifest(root)));
    return manifest.version !== databaseTemplateVersion(path.join(root, 'apps/server'));
  } catch {
    return true;
  }
}

/**
 * A tool's bin file, from the node_modules this file is installed with.
 * @param {string} name @param {string} bin
 */
function binOf(name, bin) {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve(`${name}/package.json`)), bin);
}

/**
 * tsc compiling one project to JavaScript only: no type checking, no declarations, no build info. The
 * code is written for file-by-file compilation (isolatedModules, verbatimModuleSyntax), so the
 * JavaScript is what `tsc -b` writes, in a third of the time.
 * @param {string} root @param {string} project
 */
const transpile = (root, project) => ({
  command: process.execPath,
  args: [
    binOf('typescript', 'bin/tsc'),
    '-p',
    project,
    '--noCheck',
    '--composite',
    'false',
    '--incremental',
    'false',
    '--declaration',
    'false',
    '--declarationMap',
    'false',
  ],
  cwd: root,
});

/**
 * The steps' commands. A start compiles the server to JavaScript only (the type checks are `npm run
 * typecheck`'s and the tests'); `npm run build` type-checks as before (`tsc -b`, bench/ included).
 * @param {string} root @param {'start' | 'build'} mode @returns {Record<BuildStep, Step>}
 */
export function buildSteps(root, mode) {
  const node = process.execPath;
  const show = mode === 'build';
  const web = path.join(root, 'apps/web');
  return {
    server: {
      step: 'server',
      commands:
        mode === 'build'
          ? [{ command: node, args: [binOf('typescript', 'bin/tsc'), '-b'], cwd: root }]
          : [transpile(root, 'packages/shared/tsconfig.build.json'), transpile(root, 'apps/server/tsconfig.build.json')],
      show,
    },
    web: { step: 'web', commands: [{ command: node, args: [binOf('vite', 'bin/vite.js'), 'build'], cwd: web }], show },
    template: {
      step: 'template',
      commands: [{ command: node, args: [path.join(root, 'apps/server/dist/build/databaseTemplateMain.js')], cwd: root }],
      show: false,
    },
  };
}

/** @param {Command} command @param {boolean} show @returns {Promise<{ ok: boolean; output: string }>} */
function runCommand({ command, args, cwd }, show) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', show ? 'inherit' : 'pipe', show ? 'inherit' : 'pipe'] });
    let output = '';
    const keep = (/** @type {Buffer} */ chunk) => {
      output += chunk.toString('utf8');
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('error', (error) => {
      resolve({ ok: false, output: `${output}${error.message}\n` });
    });
    child.once('close', (code) => {
      resolve({ ok: code === 0, output });
    });
  });
}

/** @type {StepRunner} */
export async function runStep({ commands, show }) {
  let output = '';
  for (const command of commands) {
    const result = await runCommand(command, show);
    output += result.output;
    if (!result.ok) return { ok: false, output };
  }
  return { ok: true, output };
}

/** What the person at the terminal reads while a step runs, and once it is done. */
const NOTES = /** @type {const} */ ({
  server: ['Building the server…', 'Built the server'],
  web: ['Building the web app…', 'Built the web app'],
  template: ['Preparing the empty database…', 'Prepared the empty database'],
});
const seconds = (/** @type {number} */ ms) => `${String(Math.max(1, Math.round(ms / 1000)))} s`;

/**
 * Builds the server and the web app side by side (for a start, only those whose sources changed since
 * their last build), then, once the server is built, the database template if it is missing or of other
 * migrations, and records what each part was built from. Resolves false when the server or the web app
 * failed (their output is printed); a template that cannot be written is reported, and a new database is
 * then created without it.
 * @param {{ root: string; mode: 'start' | 'build'; run?: StepRunner; note?: (line: string) => void }} options
 * @returns {Promise<boolean>}
 */
export async function buildProduct({ root, mode, run = runStep, note = consoleNote }) {
  const steps = buildSteps(root, mode);
  const stamp = readStamp(root);
  /** @type {Record<BuildPart, string>} */
  const hashes = { server: hashFiles(root, BUILD_PARTS.server.inputs), web: hashFiles(root, BUILD_PARTS.web.inputs) };
  const stale = PART_NAMES.filter((part) => mode === 'build' || isStale(root, stamp, part, hashes[part]));
  if (stale.length === 0 && !templateIsStale(root)) return true;

  // What is being built is forgotten first, so a build cut short is not taken for a finished one.
  for (const part of stale) stamp[part] = undefined;
  writeStamp(root, stamp);
  if (mode === 'start' && stale.length > 0) note('Parley builds itself on its first start and after its sources change.');

  /** @param {BuildStep} step */
  const build = async (step) => {
    const started = Date.now();
    const [doing, done] = NOTES[step];
    note(doing);
    const result = await run(steps[step]);
    if (!result.ok) {
      const output = result.output.trimEnd();
      process.stderr.write(`${doing.replace('…', '')} failed.${output === '' ? '' : `\n${output}`}\n`);
      return false;
    }
    note(`${done} in ${seconds(Date.now() - started)}.`);
    if (step !== 'template') {
      const outputs = outputsFingerprint(root, BUILD_PARTS[step]);
      if (outputs !== null) {
        stamp[step] = { inputs: hashes[step], outputs };
        writeStamp(root, stamp);
      }
    }
    return true;
  };

  const server = stale.includes('server') ? build('server') : Promise.resolve(true);
  const web = stale.includes('web') ? build('web') : Promise.resolve(true);
  const template = server.then(async (built) => {
    if (!built || !templateIsStale(root)) return;
    if (!(await build('template'))) note('A new database will be created without the template, which is slower.');
  });
  const [serverBuilt, webBuilt] = await Promise.all([server, web, template]);
  return serverBuilt && webBuilt;
}
