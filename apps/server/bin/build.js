#!/usr/bin/env node
// `npm run build`: builds the server (type-checked, `tsc -b`) and the web app, and the empty database template
// when it is missing or of other migrations.
import { fileURLToPath } from 'node:url';
import { buildProduct } from '../src/build/build.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
if (!(await buildProduct({ root, mode: 'build' }))) process.exit(1);
