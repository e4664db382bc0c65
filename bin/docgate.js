#!/usr/bin/env node
// Stable entry point: the compiled CLI lives in dist/ (built by `npm run build`, run by `prepare`).
import '../dist/cli/main.js';
