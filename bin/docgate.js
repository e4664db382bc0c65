#!/usr/bin/env node
// Stable entry point. `npm run build` (run by `prepare`) compiles src/ to dist/ and bundles the CLI into
// dist/bundle/ (one module loads much faster than a hundred).
import '../dist/bundle/main.js';
