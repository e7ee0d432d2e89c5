// The project's own lint rules, switched on in eslint.config.js.
import { moduleBoundaries } from './moduleBoundaries.js';
import { thinRoutes } from './thinRoutes.js';

export const parleyPlugin = { rules: { 'module-boundaries': moduleBoundaries, 'thin-routes': thinRoutes } };
