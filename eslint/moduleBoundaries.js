// The server's floor plan, enforced (docs/ARCHITECTURE.md, "Modules"): a module is entered through its
// face (modules/<name>/index.ts) only; platform/ stands under every module and imports none at run time
// (its context type may name a module's services through that module's face); a module's routes/ are
// registered through its face and imported by nothing outside the module.
import path from 'node:path';
import { importVisitors } from './importSources.js';

const SERVER_SRC = `${path.sep}apps${path.sep}server${path.sep}src${path.sep}`;

/** Where a file of the server sits: its area ('modules', 'platform', 'app' …), its module and the rest. */
export function placeOf(file) {
  const at = file.indexOf(SERVER_SRC);
  if (at < 0) return null;
  const parts = file.slice(at + SERVER_SRC.length).split(path.sep);
  if (parts[0] === 'modules' && parts.length > 2) return { area: 'modules', module: parts[1], inside: parts.slice(2) };
  return { area: parts.length > 1 ? parts[0] : '', module: null, inside: parts.slice(1) };
}

/** Test code (tests, fixtures, local peers) may reach inside modules; the build leaves it out. */
export function isTestCode(file) {
  return /\.test\.tsx?$/.test(file) || file.includes(`${path.sep}test${path.sep}`);
}

/** What is wrong with `file` importing `target` (absolute paths), or null. */
export function boundaryViolation(file, target, typeOnly) {
  const from = placeOf(file);
  const to = placeOf(target);
  if (from === null || to === null || to.area !== 'modules') return null;
  if (from.area === 'modules' && from.module === to.module) return null;
  const face = to.inside.length === 1 && /^index\.(ts|js)$/.test(to.inside[0]);
  if (from.area === 'platform' && !(typeOnly && face)) {
    return `platform/ imports no module: ${to.module} is a module (a type of its face may be named with "import type").`;
  }
  if (to.inside[0] === 'routes') return `The routes of ${to.module} are registered through its face, never imported.`;
  if (!face) return `Import ${to.module} through its face (modules/${to.module}/index.ts), not ${to.inside.join('/')}.`;
  return null;
}

const resolveSource = (file, source) => (source.startsWith('.') ? path.resolve(path.dirname(file), source) : null);

export const moduleBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Modules are entered through their faces; platform/ imports no module.' },
    schema: [],
    messages: { violation: '{{reason}}' },
  },
  create(context) {
    const file = context.filename;
    if (placeOf(file) === null || isTestCode(file)) return {};
    return importVisitors(context, (source, typeOnly) => {
      const target = resolveSource(file, source);
      return target === null ? null : boundaryViolation(file, target, typeOnly);
    });
  },
};
