#!/usr/bin/env node
// `npm start`: builds what changed since the last build (nothing, on most starts), then runs the server.
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProduct } from '../src/build/build.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
if (!(await buildProduct({ root, mode: 'start' }))) process.exit(1);
// Node 22 keeps the compiled code of the modules on disk, so later starts load them faster (Node 20 has no such cache).
module.enableCompileCache?.(path.join(root, 'node_modules/.cache/parley/compile'));
await import('../dist/main.js');
