// The project's own lint rules, switched on in eslint.config.js.
import { featureBoundaries } from './featureBoundaries.js';
import { moduleBoundaries } from './moduleBoundaries.js';
import { thinRoutes } from './thinRoutes.js';

export const parleyPlugin = {
  rules: { 'feature-boundaries': featureBoundaries, 'module-boundaries': moduleBoundaries, 'thin-routes': thinRoutes },
};
