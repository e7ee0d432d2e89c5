// @ts-check
// What `npm start` checks before it runs the server: a hash of each part's sources (and the lock file)
// beside the hash that part was last built from, so a start rebuilds only what changed. JavaScript,
// type-checked, because it runs before anything is built.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** @typedef {'server' | 'web'} BuildPart */
/**
 * What a part is built from (`inputs`), files its build writes (`outputs`), and files other builds of it
 * write (`traces`: tsc -b's build info). A part whose output is missing, or whose outputs or traces were
 * written since (another command built it, perhaps from other sources), is built again.
 * @typedef {{ inputs: readonly string[]; outputs: readonly string[]; traces: readonly string[] }} PartFiles
 */
/** @typedef {{ inputs: string; outputs: string }} PartStamp */
/** @typedef {Partial<Record<BuildPart, PartStamp>>} BuildStamp */

/** Both parts are built from the shared package's sources, with the tools the lock file names. */
const COMMON = ['package.json', 'package-lock.json', 'tsconfig.base.json', 'packages/shared/package.json', 'packages/shared/src'];

/** @type {Readonly<Record<BuildPart, PartFiles>>} */
export const BUILD_PARTS = {
  server: {
    inputs: [
      ...COMMON,
      'tsconfig.json',
      'packages/shared/tsconfig.build.json',
      'apps/server/package.json',
      'apps/server/tsconfig.build.json',
      'apps/server/src',
    ],
    outputs: ['packages/shared/dist/index.js', 'apps/server/dist/main.js'],
    traces: ['packages/shared/tsconfig.build.tsbuildinfo', 'apps/server/tsconfig.build.tsbuildinfo'],
  },
  web: {
    inputs: [
      ...COMMON,
      'apps/web/package.json',
      'apps/web/tsconfig.json',
      'apps/web/vite.config.ts',
      'apps/web/index.html',
      'apps/web/src',
      'apps/web/public',
    ],
    outputs: ['apps/web/dist/index.html'],
    traces: [],
  },
};

/** The parts in build order. */
export const PART_NAMES = /** @type {const} */ (['server', 'web']);

/** Where the stamp is kept: with other tools' caches, so a fresh install starts without one. */
export const stampFile = (/** @type {string} */ root) => path.join(root, 'node_modules', '.cache', 'parley', 'build-stamp.json');

/** Tests are not built (the server's build leaves src/test and *.test.ts out; the web app imports none). */
const notBuilt = (/** @type {string} */ relative) =>
  /\.test\.tsx?$/.test(relative) || relative.startsWith('apps/server/src/test/');

/**
 * The files under `relative` (a file or a folder), as paths relative to root, sorted.
 * @param {string} root @param {string} relative @param {string[]} out
 */
function collect(root, relative, out) {
  const full = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return;
  }
  if (stat.isFile()) {
    if (!notBuilt(relative)) out.push(relative);
    return;
  }
  if (!stat.isDirectory()) return;
  for (const name of fs.readdirSync(full).sort()) {
    if (name === 'node_modules' || name === 'dist') continue;
    collect(root, `${relative}/${name}`, out);
  }
}

/**
 * A hash of the files' names and contents (a missing file counts as missing, so creating it changes the hash).
 * @param {string} root @param {readonly string[]} inputs
 */
export function hashFiles(root, inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    /** @type {string[]} */
    const files = [];
    collect(root, input, files);
    hash.update(`${input}\0${String(files.length)}\0`);
    for (const file of files) {
      hash.update(`${file}\0`);
      hash.update(fs.readFileSync(path.join(root, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/**
 * The part's outputs and traces as they are now (size and time of each), or null when an output is missing.
 * @param {string} root @param {PartFiles} files
 */
export function outputsFingerprint(root, files) {
  const parts = [];
  for (const file of [...files.outputs, ...files.traces]) {
    try {
      const stat = fs.statSync(path.join(root, file));
      parts.push(`${file}:${String(stat.size)}:${String(stat.mtimeMs)}`);
    } catch {
      if (files.outputs.includes(file)) return null;
      parts.push(`${file}:none`);
    }
  }
  return parts.join('|');
}

/** A JSON file's contents (throws when it is missing or not JSON). @param {string} file @returns {unknown} */
export function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** @param {string} root @returns {BuildStamp} */
export function readStamp(root) {
  try {
    const parsed = readJson(stampFile(root));
    if (typeof parsed !== 'object' || parsed === null) return {};
    /** @type {BuildStamp} */
    const stamp = {};
    for (const part of PART_NAMES) {
      const entry = /** @type {Record<string, unknown>} */ (parsed)[part];
      if (typeof entry !== 'object' || entry === null) continue;
      const { inputs, outputs } = /** @type {Record<string, unknown>} */ (entry);
      if (typeof inputs === 'string' && typeof outputs === 'string') stamp[part] = { inputs, outputs };
    }
    return stamp;
  } catch {
    return {};
  }
}

/** @param {string} root @param {BuildStamp} stamp */
export function writeStamp(root, stamp) {
  const file = stampFile(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${String(process.pid)}`;
  fs.writeFileSync(partial, `${JSON.stringify(stamp, null, 2)}\n`);
  fs.renameSync(partial, file);
}

/**
 * Whether a part must be built: never built, built from other sources, or its output is missing or was
 * written since by something else.
 * @param {string} root @param {BuildStamp} stamp @param {BuildPart} part @param {string} inputs the inputs' hash now
 */
export function isStale(root, stamp, part, inputs) {
  const recorded = stamp[part];
  if (recorded === undefined || recorded.inputs !== inputs) return true;
  return outputsFingerprint(root, BUILD_PARTS[part]) !== recorded.outputs;
}

/**
 * The version of the installed package `name` as seen from `fromDir`, or 'missing'.
 * @param {string} fromDir @param {string} name
 */
export function installedVersion(fromDir, name) {
  try {
    const require = createRequire(path.join(fromDir, 'package.json'));
    let dir = path.dirname(require.resolve(name));
    for (;;) {
      const manifest = path.join(dir, 'package.json');
      if (fs.existsSync(manifest)) {
        const parsed = /** @type {{ name?: unknown; version?: unknown }} */ (readJson(manifest));
        if (parsed.name === name && typeof parsed.version === 'string') return parsed.version;
      }
      const up = path.dirname(dir);
      if (up === dir) return 'missing';
      dir = up;
    }
  } catch {
    return 'missing';
  }
}

/**
 * What an empty database is made of: the committed migrations and the embedded PostgreSQL that ran
 * them. A database template (platform/db/pgliteTemplate.ts) is used only for the very same.
 * @param {string} serverDir apps/server
 */
export function databaseTemplateVersion(serverDir) {
  const pglite = installedVersion(serverDir, '@electric-sql/pglite');
  return `pglite ${pglite}; migrations ${hashFiles(serverDir, ['migrations'])}`;
}
