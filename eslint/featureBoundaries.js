// The web app's floor plan, enforced (docs/ARCHITECTURE.md, "The web app"): a feature
// (apps/web/src/features/<name>/) uses another feature only through that feature's face, its index.ts, which
// lists what other features use of it; app/, components/ and the other folders beside features/ are shared
// and open to every feature.
import path from 'node:path';
import { importVisitors } from './importSources.js';
import { isTestCode } from './moduleBoundaries.js';

const FEATURES = `${path.sep}apps${path.sep}web${path.sep}src${path.sep}features${path.sep}`;

/** The feature a file of the web app belongs to and its path inside it, or null outside features/. */
export function featureOf(file) {
  const at = file.indexOf(FEATURES);
  if (at < 0) return null;
  const [feature, ...inside] = file.slice(at + FEATURES.length).split(path.sep);
  return feature === undefined || feature === '' ? null : { feature, inside };
}

/** What is wrong with `file` importing `target` (absolute paths, the target maybe without its extension), or null. */
export function featureViolation(file, target) {
  const from = featureOf(file);
  const to = featureOf(target);
  if (from === null || to === null || from.feature === to.feature) return null;
  const face = to.inside.length === 0 || (to.inside.length === 1 && /^index(\.tsx?|\.js)?$/.test(to.inside[0]));
  if (face) return null;
  return `Use ${to.feature} through its face (features/${to.feature}/index.ts), not ${to.inside.join('/')}.`;
}

export const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "A web feature uses another only through that feature's index.ts." },
    schema: [],
    messages: { violation: '{{reason}}' },
  },
  create(context) {
    const file = context.filename;
    if (featureOf(file) === null || isTestCode(file)) return {};
    return importVisitors(context, (source) =>
      source.startsWith('.') ? featureViolation(file, path.resolve(path.dirname(file), source)) : null,
    );
  },
};
