import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, seen from bench/dist/lib where this file runs. */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const benchDist = path.join(repoRoot, 'bench', 'dist');
export const resultsDir = path.join(repoRoot, 'bench', 'results');
export const serverEntry = path.join(repoRoot, 'apps', 'server', 'dist', 'main.js');
